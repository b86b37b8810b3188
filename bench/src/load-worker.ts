/** Child process of LoadGenerator: runs autocannon jobs sent over IPC and answers with a summary. */
import autocannon from 'autocannon';
import {
  assertLoopback,
  type LoadRequest,
  type LoadResult,
  type WorkerReply,
  type WorkerRequest,
} from './load';

/** Numbers for `{{n}}` in request bodies: never repeated within this process. */
let sequence = 0;

function withSequence(request: LoadRequest): autocannon.Request {
  const template = request.body;
  if (!template?.includes('{{n}}')) return request;
  return {
    ...request,
    setupRequest: (req) => ({ ...req, body: template.replaceAll('{{n}}', String(++sequence)) }),
  };
}

async function runJob({ job }: WorkerRequest): Promise<LoadResult> {
  assertLoopback(job.url);
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.seconds,
    timeout: 10,
    requests: job.requests.map(withSequence),
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = stat.count ?? 0;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    ok: result['2xx'],
    statusCodes,
  };
}

process.on('message', (message: WorkerRequest) => {
  runJob(message).then(
    (result) => process.send?.({ id: message.id, result } satisfies WorkerReply),
    (err: unknown) => process.send?.({ id: message.id, error: String(err) } satisfies WorkerReply),
  );
});
process.on('disconnect', () => process.exit(0));
