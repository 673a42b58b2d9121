import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { createSecureServer, Http2SecureServer, Http2Session } from 'node:http2';
import { AddressInfo } from 'node:net';
import { TLSSocket } from 'node:tls';
import { Settings } from '../config/settings';
import { servingCertificate } from './serving-certificate';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The secure port: HTTPS with HTTP/2 and HTTP/1.1 (ALPN), served by the same Fastify routing as the insecure port,
 * so every request passes the same filters; they tell the two apart by the TLS socket. Client certificates are
 * asked for when a client CA is configured, and verified by the x509 authenticator rather than the handshake, so
 * that a bad one is a 401 Status as upstream answers it.
 */
@Injectable()
export class SecureServer implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('SecureServer');
  private server?: Http2SecureServer;
  private readonly sessions = new Set<Http2Session>();
  /** HTTP/1.1 connections and how many requests each is serving */
  private readonly http1Sockets = new Map<TLSSocket, number>();
  private closing = false;
  private closed?: Promise<void>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly settings: Settings,
  ) {}

  /** Starts listening on BIND_ADDRESS:SECURE_PORT; resolves with the address taken. */
  async listen(): Promise<AddressInfo> {
    const { settings } = this;
    const { cert, key } = await servingCertificate(settings.TLS_CERT_FILE, settings.TLS_PRIVATE_KEY_FILE, settings.CERT_DIR);
    const clientCa = settings.CLIENT_CA_FILE ? await readFile(settings.CLIENT_CA_FILE, 'utf8') : undefined;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const server = createSecureServer(
      { cert, key, allowHTTP1: true, ...(clientCa ? { ca: clientCa, requestCert: true, rejectUnauthorized: false } : {}) },
      (request, response) => fastify.routing(request as never, response as never),
    );
    server.on('session', (session) => {
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
    });
    server.on('secureConnection', (socket: TLSSocket) => {
      if (socket.alpnProtocol === 'h2') return;
      this.http1Sockets.set(socket, 0);
      socket.once('close', () => this.http1Sockets.delete(socket));
    });
    server.on('request', (request, response) => {
      const socket = request.socket as TLSSocket;
      if (!this.http1Sockets.has(socket)) return;
      this.http1Sockets.set(socket, (this.http1Sockets.get(socket) ?? 0) + 1);
      response.once('close', () => {
        const left = (this.http1Sockets.get(socket) ?? 1) - 1;
        this.http1Sockets.set(socket, left);
        if (this.closing && left === 0) socket.end();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(settings.SECURE_PORT, settings.BIND_ADDRESS, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return server.address() as AddressInfo;
  }

  /** The drain is awaited when Fastify closes: after the watches have ended, before the database is released. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onClose', async () => this.drain());
  }

  /**
   * Stops accepting, and ends each connection once its requests are answered (HTTP/2 GOAWAY; idle HTTP/1.1
   * connections at once).
   */
  beforeApplicationShutdown(): void {
    const server = this.server;
    if (!server || this.closed) return;
    this.closing = true;
    this.closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const session of this.sessions) session.close();
    for (const [socket, active] of this.http1Sockets) if (active === 0) socket.end();
  }

  /** Waits for the connections to end; what is still open after SHUTDOWN_GRACE_MS is cut. */
  private async drain(): Promise<void> {
    this.beforeApplicationShutdown();
    if (!this.closed) return;
    const timer = setTimeout(() => {
      this.logger.warn({ message: 'cutting connections still open on the secure port', count: this.sessions.size + this.http1Sockets.size });
      for (const session of this.sessions) session.destroy();
      for (const socket of this.http1Sockets.keys()) socket.destroy();
    }, SHUTDOWN_GRACE_MS);
    await this.closed;
    clearTimeout(timer);
  }
}
