/**
 * The HTTP server's lifecycle, including the sockets the timeoutAfterCommit fault keeps: a 'hang'
 * socket is destroyed after HANG_DESTROY_AFTER_MS, when the faults are cleared or on stop, so stop() never waits on it.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { HANG_DESTROY_AFTER_MS } from './faults/fault-state';
import type { ConnectionControl } from './http/provider-routes';

export interface ServerHandle extends ConnectionControl {
  listen(app: Express, port: number, host?: string): Promise<number>;
  /** Ends every request a 'hang' fault holds: its client sees the connection close. */
  releaseHeld(): void;
  close(): Promise<void>;
}

export function createServerHandle(): ServerHandle {
  let server: Server | undefined;
  const hanging = new Map<Socket, NodeJS.Timeout>();

  const release = (socket: Socket): void => {
    const timer = hanging.get(socket);
    if (timer) clearTimeout(timer);
    hanging.delete(socket);
    socket.destroy();
  };

  return {
    listen(app, port, host) {
      return new Promise((resolve, reject) => {
        const onListening = (error?: Error): void => {
          if (error) {
            reject(error);
            return;
          }
          const address = listening.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        };
        const listening = host ? app.listen(port, host, onListening) : app.listen(port, onListening);
        server = listening;
      });
    },
    hang(socket) {
      // Nothing is written: the client sees its request time out, the ambiguous case.
      hanging.set(
        socket,
        setTimeout(() => release(socket), HANG_DESTROY_AFTER_MS),
      );
    },
    reset(socket) {
      // A TCP RST where the platform allows it: the client sees ECONNRESET mid-request.
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
    },
    releaseHeld() {
      for (const socket of [...hanging.keys()]) release(socket);
    },
    async close() {
      this.releaseHeld();
      const current = server;
      server = undefined;
      if (!current) return;
      const closed = new Promise<void>((resolve) => current.close(() => resolve()));
      current.closeAllConnections();
      await closed;
    },
  };
}
