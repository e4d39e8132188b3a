// Binding a uWS app with LIBUS_LISTEN_EXCLUSIVE_PORT: without it uWS sets SO_REUSEPORT, and a second
// process would share the configured port instead of finding it taken (the broker's ownership test).
// And closing one for good: idle keep-alive connections would otherwise keep the process alive.

import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';

const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => TemplatedApp;

export function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (socket: us_listen_socket | false) => void): void {
  // the typings omit the (host, port, options, cb) overload the native module has
  (app.listen as unknown as ListenWithOptions).call(app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, cb);
}

/** uWS apps have `close()` (force-closes every socket of the app) since v20.x; the bundled typings omit it. */
export function closeApp(app: TemplatedApp): void {
  (app as TemplatedApp & { close(): void }).close();
}
