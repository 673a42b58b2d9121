import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';

/**
 * Set once the server has been told to stop (by a signal, or at the latest when the application closes): from then
 * on /readyz fails, so load balancers send traffic elsewhere.
 */
@Injectable()
export class ShutdownSignal implements BeforeApplicationShutdown {
  private given = false;

  get requested(): boolean {
    return this.given;
  }

  request(): void {
    this.given = true;
  }

  beforeApplicationShutdown(): void {
    this.request();
  }
}
