/**
 * The streaming module's `klv` messages name the ST 0601 mandatory items a
 * packet lacks (missingMandatoryTags), for the viewer's panel to mark: a
 * generated stream with one packet without item 2 and one without item 65.
 */
import { expect } from 'chai';
import { createGenerator, parseFaultSpec, type StreamKlvMessage } from '@klvscope/core';
import { StreamAnalysis } from '../../src/streaming/stream-analysis.js';

describe('the streaming module: missing mandatory ST 0601 items', () => {
  it('lists the mandatory tags a packet lacks, and none for the others', () => {
    const stream = createGenerator({ durationSeconds: 3, bitrate: 2_000_000, klv: {}, faults: [parseFaultSpec('klv-missing-timestamp@1'), parseFaultSpec('klv-missing-version@2')] });
    const messages: StreamKlvMessage[] = [];
    const analysis = new StreamAnalysis((message) => messages.push(message));
    for (const chunk of stream.chunks()) analysis.push(chunk);
    expect(messages.length).to.be.greaterThan(10);
    const missing = messages.filter((message) => message.missingMandatoryTags!.length > 0).map((message) => message.missingMandatoryTags);
    expect(missing).to.deep.equal([[2], [65]]);
    expect(messages.every((message) => Array.isArray(message.missingMandatoryTags))).to.equal(true);
  });
});
