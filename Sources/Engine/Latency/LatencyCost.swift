import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The time one operation costs: a fixed part plus its bytes over a bandwidth
/// (`80us+1.2GB/s`; either part may be absent), optionally spread around that median by a
/// log-normal factor (`80us+1.2GB/s~1.6`: one operation in ten takes 1.6× the line or more).
/// O(1).
public struct LatencyCost: Sendable, Equatable, CustomStringConvertible {
  /// Microseconds charged whatever the size.
  public var fixed: Int64
  /// Bytes per second the bytes move at; infinite when only the fixed part counts.
  public var bytesPerSecond: Double
  /// The p90 of an operation's time over its median (the line), ≥ 1; 1: every operation
  /// costs exactly the line.
  public var spread: Double

  /// The largest spread a cost may have.
  public static let maximumSpread = 100.0

  public init(fixed: Int64, bytesPerSecond: Double = .infinity, spread: Double = 1) {
    self.fixed = fixed
    self.bytesPerSecond = bytesPerSecond
    self.spread = spread
  }

  /// The standard normal's 90th percentile.
  @usableFromInline static let z90 = 1.2815515655446004

  /// Microseconds for moving `bytes` after the fixed part (rounded down).
  @inlinable public func transfer(_ bytes: Int64) -> Int64 {
    Int64(Double(bytes) / bytesPerSecond * 1e6)
  }

  /// Microseconds for the whole operation on `bytes`: the line, whatever the spread.
  @inlinable public func cost(_ bytes: Int64) -> Int64 {
    bytesPerSecond.isInfinite ? fixed : fixed + transfer(bytes)
  }

  /// Microseconds for one operation on `bytes`: the line times a log-normal factor of median
  /// 1 drawn from `random` (two draws), or the line without drawing when the spread is 1.
  @inlinable public func cost(_ bytes: Int64, random: inout SplitMix64) -> Int64 {
    let line = cost(bytes)
    guard spread > 1 else { return line }
    // Box–Muller: one standard normal deviate from two uniforms, the first in (0, 1].
    let normal = (-2 * log(1 - random.nextUnit())).squareRoot() * cos(2 * Double.pi * random.nextUnit())
    return Int64((Double(line) * exp(log(spread) / Self.z90 * normal)).rounded())
  }

  /// `80us+1.2GB/s`, `20us`, `0us+500MB/s`, `80us+1.2GB/s~1.6`: what ``parse(_:)`` reads
  /// back to the same value.
  public var description: String {
    let line =
      bytesPerSecond.isInfinite ? Self.format(fixed) : "\(Self.format(fixed))+\(Bandwidth.format(bytesPerSecond))"
    return spread == 1 ? line : "\(line)~\(spread)"
  }

  /// `micros` as `Duration.format(_:)` writes it, or in milliseconds with a fraction
  /// (`562.5ms`) where that reads back exactly.
  static func format(_ micros: Int64) -> String {
    let whole = Duration.format(micros)
    guard whole.hasSuffix("us"), micros >= 1000 else { return whole }
    let milliseconds = "\(Double(micros) / 1000)ms"
    return Duration.microseconds(milliseconds) == micros ? milliseconds : whole
  }

  /// Reads `FIXED`, `FIXED+BANDWIDTH` or `BANDWIDTH` (`80us+1.2GB/s`, `45ms`, `25Mbit/s`),
  /// then optionally `~SPREAD` (`~1.6`, 1…100); a duration takes `us` (or `µs`), `ms`, `s`; a
  /// bandwidth `B/s`, `kB/s`, `MB/s`, `GB/s`, `MiB/s`, … or `bit/s`, `kbit/s`, `Mbit/s`,
  /// `Gbit/s`, `Kibit/s`, ….
  public static func parse(_ text: String) throws(ConfigurationError) -> LatencyCost {
    let pieces = text.filter { $0 != " " }.split(separator: "~", omittingEmptySubsequences: false)
    guard pieces.count <= 2 else {
      throw ConfigurationError(.invalidValue, "'\(text)' has more than one ~SPREAD")
    }
    var cost = try parseLine(String(pieces[0]))
    if pieces.count == 2 {
      guard let spread = Double(pieces[1]), spread >= 1, spread <= maximumSpread else {
        throw ConfigurationError(
          .invalidValue,
          "'~\(pieces[1])' is no spread (write the p90 over the median, from 1 to 100, as ~1.6)")
      }
      cost.spread = spread
    }
    return cost
  }

  /// Reads the line of ``parse(_:)``: `FIXED`, `FIXED+BANDWIDTH` or `BANDWIDTH`.
  static func parseLine(_ text: String) throws(ConfigurationError) -> LatencyCost {
    let parts = text.split(separator: "+", omittingEmptySubsequences: false).map {
      $0.hasSuffix("µs") ? $0.dropLast(2) + "us" : String($0)
    }
    func fixed(_ part: String) throws(ConfigurationError) -> Int64 {
      guard let micros = Duration.microseconds(part), micros <= 3_600_000_000 else {
        throw ConfigurationError(
          .invalidValue, "'\(part)' is no duration of at most 1h (write it as 80us, 0.5ms, 45ms or 2s)")
      }
      return micros
    }
    func bandwidth(_ part: String) throws(ConfigurationError) -> Double {
      guard let rate = Bandwidth.bytesPerSecond(part) else {
        throw ConfigurationError(
          .invalidValue,
          "'\(part)' is no bandwidth (write it as 1.2GB/s, 800MB/s, 64KiB/s, 25Mbit/s or 10240Kibit/s; "
            + "a capital B means bytes)")
      }
      return rate
    }
    switch parts.count {
    case 1 where parts[0].lowercased().hasSuffix("/s") || parts[0].lowercased().hasSuffix("bps"):
      return LatencyCost(fixed: 0, bytesPerSecond: try bandwidth(parts[0]))
    case 1: return LatencyCost(fixed: try fixed(parts[0]))
    case 2: return LatencyCost(fixed: try fixed(parts[0]), bytesPerSecond: try bandwidth(parts[1]))
    default:
      throw ConfigurationError(.invalidValue, "'\(text)' is no cost (write FIXED, FIXED+BANDWIDTH or BANDWIDTH)")
    }
  }
}
