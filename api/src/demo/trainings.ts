/**
 * The demo's training certificates through the training certificate service's batch form, each
 * with the signed QR its after-write step makes.
 */
import { addDays, type TrainingCertificateInput } from '@sertifikasi/shared-contracts';
import { trainingCertificateService } from '../modules/training-certificates/training-certificates.service';
import { TRAINING_NOTES, TRAINING_VENUES, TRAININGS } from './data';
import { type Body, type DemoWriter, minDate, personName, yearOf } from './writer';

/** The training certificates, each with its signed QR: numbers rise with the date within each company. */
export async function writeTrainings(w: DemoWriter, bodies: Body[]): Promise<void> {
  const { rnd, today, volume, batchRows } = w;
  const shares = bodies.map((b, i) => [i, b.seed.share] as const);
  const pending: { input: TrainingCertificateInput; at: Date }[][] = bodies.map(() => []);
  const flush = async (b: number) => {
    const batch = pending[b]!.splice(0);
    if (!batch.length) return;
    await trainingCertificateService.createMany(
      bodies[b]!.ctx,
      batch.map((p) => p.input),
      batch.map((p) => ({ at: p.at })),
    );
  };
  const span = 3 * 365;
  for (let i = 0; i < volume.trainings; i++) {
    const b = i < bodies.length ? i : rnd.weighted(shares);
    const body = bodies[b]!;
    const offered = TRAININGS.filter((t) => t.standard === null || body.seed.standards.includes(t.standard));
    const training = rnd.pick(offered);
    const date = addDays(
      today,
      -Math.floor(((volume.trainings - 1 - i) * span) / Math.max(1, volume.trainings)) - rnd.int(2),
    );
    const day0 = minDate(date, today);
    const stamp = w.at(w.dateBetween(day0, addDays(day0, 5) < today ? addDays(day0, 5) : today));
    const place = rnd.pick(TRAINING_VENUES);
    pending[b]!.push({
      at: new Date(stamp),
      input: {
        company_id: body.id,
        certification_id: training.standard
          ? (body.types.find((t) => t.code === training.standard)?.id ?? null)
          : null,
        certificate_number: body.seed.trainingNumber(yearOf(day0), ++body.counters.training),
        name: personName(rnd, false),
        training: training.name,
        location: place.includes('MSN') ? place.replace('MSN', body.seed.initials) : place,
        date: day0,
        desc: rnd.chance(0.3) ? rnd.pick(TRAINING_NOTES) : null,
      },
    });
    if (pending[b]!.length >= batchRows) await flush(b);
  }
  for (const b of bodies.keys()) await flush(b);
  w.phase(`${volume.trainings} training certificates, each with its signed QR`);
}
