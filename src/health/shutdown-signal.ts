import { Injectable } from '@nestjs/common';

/** Set once the server has been told to stop: from then on /readyz fails, so load balancers send traffic elsewhere. */
@Injectable()
export class ShutdownSignal {
  private given = false;

  get requested(): boolean {
    return this.given;
  }

  request(): void {
    this.given = true;
  }
}
