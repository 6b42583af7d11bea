import CacheCore

/// Revalidation: a stale object is checked with the origin (304 refreshes it, 200 replaces it).
extension CacheEngine {
  /// Revalidates a stored object: a conditional request (304 or 200) when it has validators,
  /// otherwise a full fetch. In the background the client was already served.
  func revalidate(
    _ request: Request, _ stored: EntryMetadata, _ current: RequestAttributes, version: Int64, inDisk: Bool,
    now: Int64,
    background: Bool, latency: inout Int64
  ) throws(FileError) {
    let tier = inDisk ? disk : memory
    let roundTrip = roundTrip(current)
    // A 5xx the library takes as a response (nginx, Varnish) goes on like any answer: in the
    // background it replaces the object (or removes it, when not storable).
    let failureIsResponse = current.status != 0 && configuration.rules.fetchesErrorResponses
    if current.originFailed, !(background && failureIsResponse) {
      if background { return }
      if tier.configuration.expiry.mayServeOnError(stored, now: now) {
        latency +=
          inDisk
          ? (try backend?.read(request.key, size: stored.size, contentClass: stored.contentClass) ?? 0)
          : configuration.latency.memory.cost(stored.size)
        counters.servedOnError += 1
        try serve(request, stored, current, version: version, from: tier, at: tier.locate(request.key), now: now)
        return
      }
      if !failureIsResponse {
        latency += roundTrip
        counters.originErrors += 1
        return
      }
    }
    // A 5xx taken as a response is never a 304: a full answer, whatever the validators.
    guard stored.hasValidators, !current.originFailed else {
      if background {
        var ignored: Int64 = 0
        try fetch(request, current, version: version, now: now, latency: &ignored)
      } else {
        try fetch(request, current, version: version, now: now, latency: &latency)
      }
      return
    }
    if !background {
      let headers = configuration.latency.headerBytes
      latency += configuration.latency.revalidation?.cost(headers) ?? roundTrip + transfer(headers)
    }
    guard stored.validates(against: current) else {
      counters.revalidated200 += 1
      counters.originFetches += 1
      counters.originBytes += request.size + configuration.latency.headerBytes
      if !background { latency += transfer(request.size) }
      try store(request, current, version: version, now: now, roundTrip: roundTrip)
      return
    }
    counters.revalidated304 += 1
    counters.originBytes += configuration.latency.headerBytes
    if configuration.rules.notModified == .storeEmptyBody {
      var empty = request
      empty.size = 0
      var headers = current
      headers.contentClass = .data
      headers.status = 304
      try store(empty, headers, version: version, now: now, roundTrip: roundTrip, bodyLost: true)
      return
    }
    var refreshed = stored
    refreshed.response = HTTPFreshness.Response(
      cacheControl: current.cacheControl, expires: current.expires, date: current.date,
      lastModified: current.lastModified == RequestAttributes.absent
        ? stored.response.lastModified : current.lastModified,
      age: current.age, status: stored.response.status, requestTime: now, responseTime: now + roundTrip)
    if current.etag != 0 {
      refreshed.etag = current.etag
      refreshed.etagIsWeak = current.etagIsWeak
    }
    refreshed.version = version
    refreshed.modifiedAt = now
    tier.prepare(&refreshed, attributes: current, now: now)
    tier.update(request.key, refreshed)
    if inDisk { try backend?.updateDates(request.key, refreshed) }
  }

  // MARK: Storing
}
