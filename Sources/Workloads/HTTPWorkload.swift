import CacheCore
import Stats

/// A seeded synthetic HTTP workload for the cache engine, written in CacheLab's CSV format.
///
/// - Popularity: Zipf(`alpha`) over `objects` URLs; a fraction `imageFraction` are images
///   (lognormal sizes, median 48 KiB, decoded cost ≈ 8 × size), the rest JSON data (median
///   2 KiB, cost = size).
/// - Freshness: each object draws a Cache-Control policy once (images mostly long max-age,
///   some `no-cache`, some only an `Expires`, some nothing but Last-Modified; data short
///   max-age, some `no-cache`, `no-store`, `stale-while-revalidate`, `must-revalidate`);
///   80 % carry an ETag `"v<version>"`, all carry Last-Modified.
/// - Origin: every object changes as a Poisson process (images every 30 days, data every
///   hour on average); each `get` row carries the origin's current version and validators.
/// - Failures: a fraction `failureRate` of requests see a 503 or a network error (status 0).
/// - App lifecycle: requests arrive at `rate` per second during sessions (mean 20 min);
///   sessions end with `background` (and sometimes `terminate`, then `launch` at the next
///   start) and resume with `foreground`; memory warnings arrive about every 2 hours of use.
///
/// Independent GSL MT19937 streams derived from `seed` draw objects, popularity, arrivals,
/// changes and failures, so the same options always produce the same file.
public struct HTTPWorkload: Sendable {
  public var requests: Int64
  public var seed: UInt64
  public var objects: Int
  public var alpha: Double
  public var imageFraction: Double
  public var rate: Double
  public var failureRate: Double

  public init(
    requests: Int64, seed: UInt64, objects: Int = 10_000, alpha: Double = 0.9, imageFraction: Double = 0.6,
    rate: Double = 5, failureRate: Double = 0.005
  ) {
    self.requests = requests
    self.seed = seed
    self.objects = objects
    self.alpha = alpha
    self.imageFraction = imageFraction
    self.rate = rate
    self.failureRate = failureRate
  }

  /// Trace time of the first request: 60 days, in seconds.
  static let start = 60 * 86_400.0

  /// The CSV header this generator writes.
  public static let header =
    "time,op,key,size,cost,class,version,cache_control,expires,date,last_modified,etag,status,latency,event"

  struct Object {
    var key: String
    var isImage: Bool
    var size: Int64
    var cacheControl: String
    var expiresAfter: Int64  // seconds after the response date, or -1
    var hasETag: Bool
    var meanChange: Double  // seconds
    var version: Int64 = 1
    var lastModified: Double
    var nextChange: Double
  }

  /// Writes the workload (header and every row) with `write`.
  public func generate(_ write: (String) throws(FileError) -> Void) throws(FileError) {
    let objectRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0x0b1e_c7))
    let rankRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0x7a4b))
    let timeRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0x713e))
    let changeRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0xc4a9_6e))
    let failureRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0xfa11))
    var table = (0..<objects).map { rank in makeObject(rank, objectRandom, changeRandom) }
    // The trace starts 60 days into the objects' history, so Last-Modified dates are in the past.
    let popularity = DiscreteSampler(zipfObjects: objects, alpha: alpha)

    try write(Self.header + "\n")
    var clock = Self.start
    var sessionEnd = clock + timeRandom.exponential(mean: 1200)
    var nextWarning = clock + timeRandom.exponential(mean: 7200)
    var written: Int64 = 0
    while written < requests {
      clock += timeRandom.exponential(mean: 1 / rate)
      if clock >= sessionEnd {
        try write(event(sessionEnd, "background"))
        let terminated = timeRandom.uniform() < 0.2
        if terminated { try write(event(sessionEnd + 1, "terminate")) }
        let resume = sessionEnd + 60 + timeRandom.exponential(mean: 7200)
        try write(event(resume, terminated ? "launch" : "foreground"))
        clock = resume + timeRandom.exponential(mean: 1 / rate)
        sessionEnd = resume + timeRandom.exponential(mean: 1200)
        nextWarning = max(nextWarning, resume)
        continue
      }
      if clock >= nextWarning {
        try write(event(nextWarning, "memory_warning"))
        nextWarning = clock + timeRandom.exponential(mean: 7200)
      }
      let rank = popularity.sample(rankRandom)
      while table[rank].nextChange <= clock {
        table[rank].version += 1
        table[rank].lastModified = table[rank].nextChange
        table[rank].nextChange += changeRandom.exponential(mean: table[rank].meanChange)
      }
      let draw = failureRandom.uniform()
      let status = draw < failureRate / 2 ? 0 : (draw < failureRate ? 503 : 200)
      let latency = 0.03 + failureRandom.exponential(mean: 0.05)
      try write(row(table[rank], time: clock, status: status, latency: latency))
      written += 1
    }
  }

  private func makeObject(_ rank: Int, _ random: GSLRandom, _ changes: GSLRandom) -> Object {
    let isImage = random.uniform() < imageFraction
    let size = Int64(
      min(max(random.lognormal(mu: isImage ? 10.78 : 7.6, sigma: isImage ? 1.0 : 1.2), 128.0), 8_388_608.0))
    let policy = random.uniform()
    var cacheControl = ""
    var expiresAfter: Int64 = -1
    if isImage {
      switch policy {
      case ..<0.5: cacheControl = "public, max-age=86400"
      case ..<0.7: cacheControl = "max-age=604800, immutable"
      case ..<0.8: cacheControl = "no-cache"
      case ..<0.9: expiresAfter = 3600
      default: break  // Last-Modified only: heuristic freshness
      }
    } else {
      switch policy {
      case ..<0.4: cacheControl = "max-age=\(60 * (1 + Int(random.integer(below: 10))))"
      case ..<0.6: cacheControl = "no-cache"
      case ..<0.65: cacheControl = "no-store"
      case ..<0.85: cacheControl = "max-age=300, stale-while-revalidate=600, stale-if-error=86400"
      default: cacheControl = "private, max-age=0, must-revalidate"
      }
    }
    let meanChange = isImage ? 30 * 86_400.0 : 3600.0
    return Object(
      key: isImage ? "https://cdn.example.com/img/\(rank).jpg" : "https://api.example.com/v1/items/\(rank)",
      isImage: isImage, size: size, cacheControl: cacheControl, expiresAfter: expiresAfter,
      hasETag: random.uniform() < 0.8, meanChange: meanChange, lastModified: Self.start * random.uniform(),
      nextChange: Self.start + changes.exponential(mean: meanChange))
  }

  private func event(_ time: Double, _ name: String) -> String {
    "\(Self.seconds(time)),event,,0,,,,,,,,,,,\(name)\n"
  }

  private func row(_ object: Object, time: Double, status: Int, latency: Double) -> String {
    let cost = object.isImage ? object.size * 8 : object.size
    let expires = object.expiresAfter >= 0 ? Self.seconds(time + Double(object.expiresAfter)) : ""
    let etag = object.hasETag ? "\"\"\"v\(object.version)\"\"\"" : ""
    let cc = object.cacheControl.contains(",") ? "\"\(object.cacheControl)\"" : object.cacheControl
    return
      "\(Self.seconds(time)),get,\(object.key),\(object.size),\(cost),\(object.isImage ? "image" : "data"),\(object.version),\(cc),\(expires),\(Self.seconds(time)),\(Self.seconds(object.lastModified)),\(etag),\(status),\(Self.seconds(latency))\n"
  }

  /// Seconds with millisecond precision, locale-independent.
  static func seconds(_ value: Double) -> String {
    let millis = Int64((value * 1000).rounded())
    let fraction = millis % 1000
    return "\(millis / 1000).\(fraction < 10 ? "00" : (fraction < 100 ? "0" : ""))\(fraction)"
  }
}
