import { Logger } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { createApp } from '../app';
import { Settings } from '../config/settings';
import { ShutdownSignal } from '../health/shutdown-signal';
import { SecureServer } from '../serving/secure-server';
import { RunningDatabase } from '../storage/database/embedded-postgres';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where an instance serves: the insecure port, then the secure one. */
export interface ServingAddresses {
  address: string;
  port: number;
  secureAddress: string;
  securePort: number;
}

/**
 * One server instance in this process: the application over `database`, both ports, and the graceful stop on
 * SIGTERM/SIGINT, which stops `database` too and ends the process. `announce` is told where it serves.
 */
export async function runServerInstance(
  settings: Settings,
  database: RunningDatabase,
  announce: (serving: ServingAddresses) => void,
): Promise<void> {
  const logger = new Logger('pgkube');
  const app = await createApp(settings, database.url);
  let stopping = false;
  // Readiness fails first (SHUTDOWN_DELAY_SECONDS for load balancers to notice); then app.close() ends the watch
  // streams, stops accepting connections, waits for the requests in flight, and releases the database.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ message: 'shutting down', signal, delaySeconds: settings.SHUTDOWN_DELAY_SECONDS });
    app.get(ShutdownSignal).request();
    await sleep(settings.SHUTDOWN_DELAY_SECONDS * 1000);
    await app.close();
    await database.stop();
    logger.log({ message: 'stopped' });
    process.exit(0);
  };
  // before listening: a signal that comes while the ports open still stops the server and its PostgreSQL
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  await app.listen(settings.PORT, settings.INSECURE_BIND_ADDRESS);
  const { address, port } = app.getHttpServer().address() as AddressInfo;
  const secure = await app.get(SecureServer).listen();
  announce({ address, port, secureAddress: secure.address, securePort: secure.port });
}
