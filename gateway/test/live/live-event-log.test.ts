import { expect } from 'chai';
import { LiveEventLog } from '../../src/live/live-event-log.js';

interface Event {
  seq: number;
  text: string;
}

const add = (log: LiveEventLog<Event>, text: string): Event => log.append((seq) => ({ seq, text }));

describe('LiveEventLog', () => {
  it('numbers events from 1 and gives those after a number, keeping only the latest `capacity`', () => {
    const log = new LiveEventLog<Event>(3);
    for (const text of ['a', 'b', 'c', 'd', 'e']) add(log, text);
    expect([log.first, log.last]).to.deep.equal([3, 5]);
    expect(log.since(0).map((event) => event.text)).to.deep.equal(['c', 'd', 'e']);
    expect(log.since(3).map((event) => event.seq)).to.deep.equal([4, 5]);
    expect(log.since(5)).to.deep.equal([]);
  });

  it('lets a follower read what was kept, then wait for what comes, and end after the last event once closed', async () => {
    const log = new LiveEventLog<Event>(10);
    add(log, 'a');
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of log.follow(0)) seen.push(event.text);
    })();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).to.deep.equal(['a']);
    add(log, 'b');
    add(log, 'c');
    log.close();
    await following;
    expect(seen).to.deep.equal(['a', 'b', 'c']);
  });

  it('resumes a follower after the number it gives, and stops a waiting follower when its signal aborts', async () => {
    const log = new LiveEventLog<Event>(10);
    for (const text of ['a', 'b', 'c']) add(log, text);
    const controller = new AbortController();
    const seen: number[] = [];
    const following = (async () => {
      for await (const event of log.follow(2, controller.signal)) seen.push(event.seq);
    })();
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await following;
    expect(seen).to.deep.equal([3]);
    add(log, 'd');
    expect(log.since(3).map((event) => event.text)).to.deep.equal(['d']);
  });
});
