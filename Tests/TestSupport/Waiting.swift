import Foundation

/// Waiting for something another process does, without guessing how long it takes.
public enum Waiting {
  /// Checks `condition` every 5 ms until it holds (true) or `bound` seconds have passed
  /// (false). The bound is a generous limit for a stuck process, not an expected duration.
  public static func until(seconds bound: Double = 120, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(bound)
    while Date() < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
  }
}
