import { expect } from 'chai';
import { JobQueue, type JobContext } from '../../src/workflow/job-queue.js';
import { WorkflowError } from '../../src/workflow/workflow-error.js';

/** A job that runs until released (or aborted), so a test controls when it finishes. */
function gate(): { work: (ctx: JobContext) => Promise<string>; release: (value: string) => void; started: Promise<JobContext> } {
  let release: (value: string) => void = () => undefined;
  let markStarted: (ctx: JobContext) => void = () => undefined;
  const started = new Promise<JobContext>((resolve) => (markStarted = resolve));
  const work = (ctx: JobContext): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      release = resolve;
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
      markStarted(ctx);
    });
  return { work, release: (value) => release(value), started };
}

describe('JobQueue', () => {
  it('runs a job to completed with its result, progress and timestamps', async () => {
    const queue = new JobQueue();
    const job = queue.submit('analysis', '/a.ts', (ctx) => {
      ctx.progress(50, 100);
      ctx.progress(100);
      return Promise.resolve({ ok: true });
    });
    expect(job.status, 'a free slot starts it at once').to.equal('running');
    const done = await queue.wait(job.id);
    expect(done.status).to.equal('completed');
    expect(done.result).to.deep.equal({ ok: true });
    expect(done.progress).to.deep.equal({ bytesDone: 100, bytesTotal: 100 });
    expect(done.startedAt).to.be.a('string');
    expect(done.finishedAt).to.be.a('string');
    expect(done.error).to.equal(null);
  });

  it('marks a job failed with the error code and message of what it threw', async () => {
    const queue = new JobQueue();
    const job = queue.submit('ingest', '/b.ts', () => Promise.reject(new WorkflowError('ERR_FILE_UNREADABLE', 'cannot read /b.ts')));
    const done = await queue.wait(job.id);
    expect(done.status).to.equal('failed');
    expect(done.error).to.deep.equal({ code: 'ERR_FILE_UNREADABLE', message: 'cannot read /b.ts' });
  });

  it('runs no more jobs at once than its concurrency, the rest waiting queued', async () => {
    const queue = new JobQueue({ concurrency: 1 });
    const first = gate();
    const a = queue.submit('ingest', 'a', first.work);
    const b = queue.submit('ingest', 'b', () => Promise.resolve('b done'));
    await first.started;
    expect(queue.get(a.id)?.status).to.equal('running');
    expect(queue.get(b.id)?.status).to.equal('queued');
    first.release('a done');
    expect((await queue.wait(b.id)).result).to.equal('b done');
    expect(queue.get(a.id)?.status).to.equal('completed');
  });

  it('cancels a running job through its signal, and a queued one before it runs', async () => {
    const queue = new JobQueue({ concurrency: 1 });
    const running = gate();
    let queuedRan = false;
    const a = queue.submit('ingest', 'a', running.work);
    const b = queue.submit('ingest', 'b', () => {
      queuedRan = true;
      return Promise.resolve();
    });
    const ctx = await running.started;
    expect(queue.cancel(b.id).status).to.equal('cancelled');
    queue.cancel(a.id);
    expect(ctx.signal.aborted).to.equal(true);
    expect((await queue.wait(a.id)).status).to.equal('cancelled');
    expect(queuedRan).to.equal(false);
  });

  it('refuses to cancel a finished job and names an unknown one', async () => {
    const queue = new JobQueue();
    const job = queue.submit('process', 'x', () => Promise.resolve(1));
    await queue.wait(job.id);
    expect(() => queue.cancel(job.id)).to.throw(WorkflowError).with.property('code', 'ERR_JOB_FINISHED');
    expect(() => queue.cancel('nope')).to.throw(WorkflowError).with.property('code', 'ERR_JOB_NOT_FOUND');
    expect(queue.get('nope')).to.equal(null);
  });

  it('returns copies, so a caller cannot change a job by editing what it got', async () => {
    const queue = new JobQueue();
    const job = queue.submit('analysis', 'x', () => Promise.resolve(1));
    job.status = 'failed';
    expect((await queue.wait(job.id)).status).to.equal('completed');
  });

  it('forgets the oldest finished jobs beyond its bound', async () => {
    const queue = new JobQueue({ keepFinished: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const job = queue.submit('analysis', String(i), () => Promise.resolve(i));
      ids.push(job.id);
      await queue.wait(job.id);
    }
    expect(queue.get(ids[0])).to.equal(null);
    expect(queue.get(ids[2])?.result).to.equal(2);
  });

  it('on shutdown cancels what is unfinished and refuses new jobs', async () => {
    const queue = new JobQueue();
    const running = gate();
    const job = queue.submit('ingest', 'a', running.work);
    await running.started;
    await queue.shutdown();
    expect(queue.get(job.id)?.status).to.equal('cancelled');
    expect(() => queue.submit('ingest', 'b', () => Promise.resolve(1))).to.throw(WorkflowError).with.property('code', 'ERR_JOB_QUEUE_CLOSED');
  });
});
