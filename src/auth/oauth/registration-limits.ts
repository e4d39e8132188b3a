// Limits on RFC 7591 dynamic registration, which anyone who can reach the endpoint may call without
// credentials: a per-source sliding window of registrations a minute, so one process cannot flood the
// client registry, and a cap on registrations still waiting to authorize (each expires after an hour).

const WINDOW_MS = 60_000;

export class RegistrationLimiter {
  /** Registration times (epoch ms) of the last minute, per source address. */
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly perMinute: number) {}

  /** Counts a registration from `source`; null when admitted, else the seconds until one more would be. */
  admit(source: string, now: number): number | null {
    this.forgetBefore(now - WINDOW_MS);
    const times = this.recent.get(source) ?? [];
    const oldest = times[0];
    if (oldest !== undefined && times.length >= this.perMinute) return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    times.push(now);
    this.recent.set(source, times);
    return null;
  }

  private forgetBefore(cutoff: number): void {
    for (const [source, times] of this.recent) {
      const kept = times.findIndex((t) => t > cutoff);
      if (kept === -1) this.recent.delete(source);
      else if (kept > 0) times.splice(0, kept);
    }
  }
}
