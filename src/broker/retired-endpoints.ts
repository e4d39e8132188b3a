// Endpoints that have left the broker for good, remembered by the digest of their broker secret so that
// none can be registered again. Bounded; when full the broker fails closed: it refuses new registrations
// instead of forgetting an old endpoint.

export class RetiredEndpoints {
  private readonly digests = new Set<string>();

  constructor(readonly capacity = 4096) {}

  has(digestHex: string): boolean {
    return this.digests.has(digestHex);
  }

  get full(): boolean {
    return this.digests.size >= this.capacity;
  }

  get size(): number {
    return this.digests.size;
  }

  /** False when full: the caller must keep the endpoint (quarantined) rather than lose its memory. */
  add(digestHex: string): boolean {
    if (this.digests.has(digestHex)) return true;
    if (this.full) return false;
    this.digests.add(digestHex);
    return true;
  }
}
