/** The demo's training certificates, each with its signed QR. */
import { addDays } from '@sertifikasi/shared-contracts';
import { trainingSignedFields } from '@sertifikasi/shared-contracts/credential';
import { TRAINING_NOTES, TRAINING_VENUES, TRAININGS } from './data';
import { type Body, type DemoWriter, minDate, personName, signQrs, yearOf } from './writer';

/** The training certificates, each with its signed QR: numbers rise with the date within each company. */
export async function writeTrainings(w: DemoWriter, bodies: Body[]): Promise<void> {
  const { rnd, today, volume, batchRows } = w;
  const shares = bodies.map((b, i) => [i, b.seed.share] as const);
  let trainingBatch: ({
    certificate_number: string;
    name: string;
    training: string;
    date: string;
    qrcode: string | null;
  } & Record<string, unknown>)[] = [];
  const flushTrainings = async () => {
    await signQrs(w, 'training', trainingBatch, trainingSignedFields);
    await w.insertRows('training_certificates', trainingBatch);
    trainingBatch = [];
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
    trainingBatch.push({
      id: rnd.uuid(),
      company_id: body.id,
      certification_id: training.standard
        ? (body.types.find((t) => t.code === training.standard)?.id ?? null)
        : null,
      certificate_number: body.seed.trainingNumber(yearOf(day0), ++body.counters.training),
      name: personName(rnd, false),
      training: training.name,
      location: place.includes('MSN') ? place.replace('MSN', body.seed.initials) : place,
      date: day0,
      description: rnd.chance(0.3) ? rnd.pick(TRAINING_NOTES) : null,
      qrcode: null as string | null,
      created_at: stamp,
      updated_at: stamp,
    });
    if (trainingBatch.length >= batchRows) await flushTrainings();
  }
  await flushTrainings();
  w.phase(`${volume.trainings} training certificates, each with its signed QR`);
}
