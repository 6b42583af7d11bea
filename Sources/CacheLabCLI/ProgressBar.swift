import CacheCore
import Replay
import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-line progress bar on standard error with the trace requests handled per second
/// (each through every cache of the pass) and the ETA, redrawn at most ten times a second;
/// silent with `--quiet` or when standard error is not a terminal.
final class ProgressBar: @unchecked Sendable {
  private let enabled: Bool
  private let label: String
  private let started = Stopwatch.nanoseconds()
  private var lastDraw: UInt64 = 0
  private var drawn = false

  /// A bar labelled `label`; off with `quiet` or when standard error is not a terminal.
  init(label: String, quiet: Bool = false) {
    self.label = label
    enabled = !quiet && isatty(STDERR_FILENO) != 0
  }

  /// Called by the replayer after each batch.
  func update(_ done: Int64, _ total: Int64?) {
    guard enabled else { return }
    let now = Stopwatch.nanoseconds()
    guard now - lastDraw >= 100_000_000 || (total != nil && done >= total!) else { return }
    lastDraw = now
    let seconds = Double(now - started) / 1e9
    let rate = seconds > 0 ? Double(done) / seconds : 0
    var line = label + " "
    if let total, total > 0 {
      let fraction = min(1, Double(done) / Double(total))
      let width = 24
      let filled = Int(fraction * Double(width))
      line += "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "] "
      line += Decimal.fixed(fraction * 100, 1) + " % "
      let remaining = rate > 0 ? Double(total - done) / rate : 0
      line += " " + Decimal.fixed(rate / 1e6, 1) + " M trace requests/s  ETA " + Self.clock(remaining)
    } else {
      line += "\(done) requests  " + Decimal.fixed(rate / 1e6, 1) + " M trace requests/s  " + Self.clock(seconds)
    }
    Self.write("\r" + line + "\u{1B}[K")
    drawn = true
  }

  /// Erases the bar.
  func finish() {
    guard enabled, drawn else { return }
    Self.write("\r\u{1B}[K")
    drawn = false
  }

  private static func write(_ text: String) { StandardError.write(text) }

  static func clock(_ seconds: Double) -> String {
    let total = Int(seconds.rounded())
    let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
  }
}
