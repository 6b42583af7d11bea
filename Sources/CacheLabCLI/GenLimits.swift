import ArgumentParser

/// Bounds shared by the generators, so a generated trace is finite in time and in size.
enum GenLimits {
  /// The longest trace a generator writes: ten years of trace time (events such as
  /// backgrounding are written per session, so the span bounds the output too).
  static let maximumSpanSeconds = 10 * 365.25 * 86_400.0

  /// Refuses a `--rate` at which `requests` would span more than ten years of trace time.
  static func checkSpan(requests: Int64, rate: Double) throws {
    guard rate > 0, rate.isFinite else { throw ValidationError("--rate must be positive") }
    let span = Double(requests) / rate
    guard span <= maximumSpanSeconds else {
      throw ValidationError(
        "--rate \(rate) makes \(requests) requests span about \(Int(min(span / 31_557_600, 1e15))) years of trace time;"
          + " the most is 10 years (raise --rate or lower --requests)")
    }
  }
}
