/**
 * Refuses a request whose Host header names anything but the loopback
 * interface. A browser page of another site can re-point its own name at
 * 127.0.0.1 (DNS rebinding) and then read our public endpoints as same-origin;
 * its requests still carry its name in Host, which is how they are told apart.
 */
import type { FastifyInstance } from 'fastify';
import { InspectionError } from '../inspection/inspection-error.js';
import { isAllowedHostHeader } from './loopback-host.js';

export function installHostHeaderGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.host;
    if (isAllowedHostHeader(header)) return done();
    done(new InspectionError('ERR_HOST_HEADER_REFUSED', `the Host header '${header}' does not name the loopback interface: use 127.0.0.1, [::1] or localhost`, { host: header }));
  });
}
