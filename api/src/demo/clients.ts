/**
 * The demo's clients (client certificates), spread over the certification bodies by their share,
 * written through the client service's batch form by each company's staff user.
 */
import { addDays, type ClientCertificateInput, parseSectorCodes } from '@sertifikasi/shared-contracts';
import { clientCertificateService } from '../modules/client-certificates/client-certificates.service';
import type { Uploads } from '../modules/resource/resource.service';
import { COMPANY_FORMS, INDUSTRIES, NAME_FIRST, NAME_SECOND, PLACES, STANDARDS, STREETS } from './data';
import { initialsOf, logoSvg } from './images';
import { type Body, type Client, type DemoWriter, digits, personName } from './writer';

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/^(pt|cv|koperasi|yayasan) /, '')
    .replace(/ tbk$/, '')
    .replace(/[^a-z0-9]+/g, '');

/** The clients, spread over the bodies by their share; the first `volume.logos` get a logo. */
export async function writeClients(w: DemoWriter, bodies: Body[]): Promise<Client[]> {
  const { rnd, today, volume, batchRows } = w;
  const shares = bodies.map((b, i) => [i, b.seed.share] as const);
  const clients: Client[] = [];
  /** Each body's clients still to write: the client, its input, its logo and when it was added. */
  type Pending = { client: Client; input: ClientCertificateInput; uploads: Uploads; at: Date };
  const pending: Pending[][] = bodies.map(() => []);
  const flush = async (b: number) => {
    const batch = pending[b]!.splice(0);
    if (!batch.length) return;
    const created = await clientCertificateService.createMany(
      bodies[b]!.ctx,
      batch.map((p) => p.input),
      batch.map((p) => ({ uploads: p.uploads, at: p.at })),
    );
    created.forEach((c, i) => (batch[i]!.client.id = c.id));
  };
  for (let i = 0; i < volume.clients; i++) {
    // The first few go round the bodies, so even a tiny data set has clients everywhere.
    const b = i < 3 * bodies.length ? i % bodies.length : rnd.weighted(shares);
    const body = bodies[b]!;
    const industry = rnd.pick(INDUSTRIES);
    const place = rnd.pick(PLACES);
    const form = rnd.weighted(COMPANY_FORMS);
    const core = `${rnd.pick(NAME_FIRST)} ${rnd.pick(NAME_SECOND)}`;
    const third = rnd.chance(0.6)
      ? ` ${rnd.pick(industry.nameWords)}`
      : rnd.chance(0.3)
        ? ` ${place.city.split(' ').pop()}`
        : '';
    const name = form === 'PT Tbk' ? `PT ${core}${third} Tbk` : `${form} ${core}${third}`;
    const domain = `${slug(name)}${rnd.chance(0.7) ? '.co.id' : '.com'}`;
    const created = new Date(w.at(addDays(today, -rnd.between(30, 1400))));
    const employees = rnd.weighted([
      [rnd.between(10, 49), 30],
      [rnd.between(50, 249), 45],
      [rnd.between(250, 2500), 25],
    ] as const);
    const street =
      place.estate && rnd.chance(0.5)
        ? `${place.estate} Blok ${String.fromCharCode(65 + rnd.int(8))}-${rnd.between(1, 40)}`
        : `${rnd.pick(STREETS)} No. ${rnd.between(1, 250)}`;
    const client: Client = {
      id: '',
      name,
      body: b,
      typeStart: rnd.int(body.types.length),
      schemes: 0,
      sectorCodes: parseSectorCodes(industry.ea) ?? [],
    };
    clients.push(client);
    const input: ClientCertificateInput = {
      company_id: body.id,
      certificate_number: body.seed.clientNumber(++body.counters.client),
      region: place.province,
      name,
      address: `${street}, ${place.city}, ${place.province} ${place.postal}`,
      city: place.city,
      province: place.province,
      postcode: place.postal,
      country: 'ID',
      name_en: null,
      scope: industry.scope,
      ea_code: industry.ea,
      nace_code: industry.nace,
      president: personName(rnd, true),
      management_representative: personName(rnd, true),
      foundation_day: addDays(today, -rnd.between(3 * 365, 45 * 365)),
      employees_number: employees,
      employees_active: Math.max(1, Math.round(employees * (0.8 + rnd.next() * 0.2))),
      phone: `(${place.areaCode}) ${digits(rnd, 3)} ${digits(rnd, 4)}`,
      handphone: rnd.chance(0.8)
        ? `08${rnd.pick(['11', '12', '13', '21', '22', '52', '55', '56', '57', '77', '78', '81', '96'])}-${digits(rnd, 4)}-${digits(rnd, 4)}`
        : null,
      fax: rnd.chance(0.3) ? `(${place.areaCode}) ${digits(rnd, 3)} ${digits(rnd, 4)}` : null,
      email: rnd.chance(0.9)
        ? `${rnd.pick(['info', 'admin', 'kontak', 'qhse', 'mr', 'legal'])}@${domain}`
        : null,
      website: rnd.chance(0.75) ? `https://www.${domain}` : null,
      send_reminders: 'true',
    };
    const uploads: Uploads =
      i < volume.logos
        ? {
            logo: await w.image(
              logoSvg(initialsOf(name), rnd.pick(STANDARDS).colour, rnd.chance(0.5) ? 'circle' : 'tile'),
              'Logo',
            ),
          }
        : {};
    pending[b]!.push({ client, input, uploads, at: created });
    if (pending[b]!.length >= batchRows) await flush(b);
  }
  for (const b of bodies.keys()) await flush(b);
  w.phase(`${volume.clients} clients (${Math.min(volume.logos, volume.clients)} with a logo)`);
  return clients;
}
