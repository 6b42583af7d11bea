import CacheCore
import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A CSV file that gains one row per judged ratio each time the gate runs (`--history`), so
/// a project can plot its speed over time. The file is rewritten whole, atomically: old rows
/// first, unchanged. O(rows).
public enum SpeedHistory {
  /// The columns, in order.
  public static let header = [
    "date", "commit", "machine", "baseline", "reference", "report", "configuration", "ratio", "ratio_ci95_low",
    "ratio_ci95_high", "rounds", "threshold", "verdict", "candidate_requests_per_second",
    "reference_requests_per_second",
  ]

  /// Appends `verdict`'s ratios (overall first) to the history at `path`, creating it.
  ///
  /// - Throws: ``FileError`` when the file exists but is not a speed history, or cannot be written.
  public static func append(
    _ verdict: SpeedVerdict, to path: String, baseline: String, machine: MachineRecord, commit: String
  ) throws(FileError) {
    var rows: [[String]] = []
    if access(path, F_OK) == 0 {
      let existing = try ReportTable(contentsOf: path)
      guard existing.header == header else {
        throw FileError(
          path: "\(path):1", "not a speed history (its columns are not \(header.joined(separator: ",")))")
      }
      rows = existing.rows
    }
    for judged in (verdict.overall.map { [$0] } ?? []) + verdict.configurations {
      rows.append([
        machine.made, commit, machine.summary, baseline, verdict.reference, judged.report, judged.label,
        Decimal.fixed(judged.ratio, 4), Decimal.fixed(judged.lower, 4), Decimal.fixed(judged.upper, 4),
        String(judged.rounds), Decimal.fixed(judged.threshold, 2), judged.isSlower ? "slower" : "not slower",
        Decimal.fixed(judged.candidateSpeed, 0), Decimal.fixed(judged.referenceSpeed, 0),
      ])
    }
    let writer = try AtomicFileWriter(path: path)
    try writer.write(ReportTable(path: path, header: header, rows: rows).render())
    try writer.commit()
  }

  /// The commit being judged: `GITHUB_SHA` or `CI_COMMIT_SHA` when CI sets them, else the
  /// working directory's checkout, else `unknown`.
  public static func currentCommit() -> String {
    for name in ["GITHUB_SHA", "CI_COMMIT_SHA"] {
      if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
    }
    return MachineRecord.gitState(of: ".")?.commit ?? "unknown"
  }
}
