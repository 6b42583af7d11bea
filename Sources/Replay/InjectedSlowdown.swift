#if CACHELAB_INJECT_SLOWDOWN
  import CacheCore

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// A known slowdown for proving the regression gate, compiled only into builds made with
  /// `swift build -Xswiftc -DCACHELAB_INJECT_SLOWDOWN` (never into a normal build) and set by
  /// the environment: `CACHELAB_INJECT_SLOWDOWN=0.15` makes every cache's timed replay run
  /// at 85 % of its speed (time ÷ 0.85), `CACHELAB_INJECT_SLOWDOWN=lru=0.30` only the `lru`
  /// caches at 70 %. The extra time is spent spinning on the clock inside the timed region.
  enum InjectedSlowdown {
    /// Each target's slowdown (0: none), from its policy or engine label.
    static func fractions(labels: [String]) -> [Double] {
      guard let setting = getenv("CACHELAB_INJECT_SLOWDOWN").map({ String(cString: $0) }), !setting.isEmpty else {
        return labels.map { _ in 0 }
      }
      let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
      let (name, fraction) = parts.count == 2 ? (parts[0], Double(parts[1]) ?? 0) : (nil, Double(parts[0]) ?? 0)
      return labels.map { label in
        let policy = label.split(separator: ":").first.map(String.init) ?? label
        return name == nil || name == policy || name == label ? min(max(fraction, 0), 0.95) : 0
      }
    }

    /// Spins until `elapsed` nanoseconds of work have taken elapsed ÷ (1 − fraction).
    @inline(never)
    static func stretch(_ elapsed: UInt64, fraction: Double) {
      let until = Stopwatch.nanoseconds() + UInt64(Double(elapsed) * fraction / (1 - fraction))
      while Stopwatch.nanoseconds() < until {}
    }
  }
#endif
