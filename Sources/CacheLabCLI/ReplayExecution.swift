import ArgumentParser
import CacheCore
import Replay
import Reports
import Traces
import Workloads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Performs the runs `ReplayOptions` describe: checks the outputs first, replays each
/// repeat with a progress bar, writes the CSV and the report directory.
enum ReplayExecution {
  /// The results of every repeat, after writing `--output`, `--window-series` and `--report`
  /// (whose comparison uses `baseline`, as `compare --baseline` does).
  static func perform(_ options: ReplayOptions, baseline: String? = nil) throws -> [RunResult] {
    let configurations = try options.configurations()
    // Held until the run's reports are written: no other process may use these stores.
    let storeLocks = try configurations.first.map { try options.engine.prepareStores($0.engines) } ?? []
    defer { withExtendedLifetime(storeLocks) {} }
    let output = try options.output.flatMap { path in path == "-" ? nil : try AtomicFileWriter(path: path) }
    let json = try options.json.map { path in try AtomicFileWriter(path: path) }
    let series = try options.windowSeries.map { path in try AtomicFileWriter(path: path) }
    let disagreements = try options.disagreements.map { path in try AtomicFileWriter(path: path) }
    if let directory = options.report { try makeDirectories(directory, purpose: "report directory") }
    var results: [RunResult] = []
    for (index, configuration) in configurations.enumerated() {
      let label = configurations.count > 1 ? "run \(index + 1)/\(configurations.count)" : "replaying"
      let bar = ProgressBar(label: label, quiet: options.quiet)
      let prePass = ProgressBar(label: "measuring the working set", quiet: options.quiet)
      results.append(
        try withTrace(configuration) { configuration in
          var replayer = Replayer(configuration) { done, total in
            prePass.finish()
            bar.update(done, total)
          }
          replayer.prePassProgress = { done in prePass.update(done, nil) }
          defer { bar.finish() }
          return try replayer.run()
        })
    }
    if let output {
      try output.write(
        options.output?.lowercased().hasSuffix(".json") == true ? JSONReport.render(results) : CSVReport.render(results)
      )
      try output.commit()
    } else if options.output == "-" {
      print(CSVReport.render(results), terminator: "")
    }
    if let json {
      try json.write(JSONReport.render(results))
      try json.commit()
    }
    if let series {
      try series.write(WindowSeries.render(results))
      try series.commit()
    }
    if let disagreements {
      try disagreements.write(DisagreementReport.render(results))
      try disagreements.commit()
    }
    if let directory = options.report { try ReportDirectory.write(results, to: directory, baseline: baseline) }
    return results
  }

  /// Runs `body` with `configuration`, first generating its synthetic trace (seeded with the
  /// run's seed) into a temporary file that is removed afterwards — also when the run is
  /// interrupted — and removing such files that killed runs left.
  static func withTrace<T>(_ configuration: RunConfiguration, _ body: (RunConfiguration) throws -> T) throws -> T {
    guard SyntheticTraceSpec.matches(configuration.tracePath) else { return try body(configuration) }
    let spec = try SyntheticTraceSpec(parsing: configuration.tracePath)
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    TemporaryFiles.removeLeftovers(in: directory, prefix: "cachelab-gen-")
    let path = "\(directory)/cachelab-gen-\(getpid())-\(configuration.seed)\(spec.fileSuffix)"
    let token = TemporaryFiles.register(path)
    defer {
      unlink(path)
      TemporaryFiles.unregister(token)
    }
    do {
      try spec.generate(seed: configuration.seed, to: path)
    } catch let error as FileError {
      // The file is ours, not the user's: name the spec.
      throw Failure(message: "\(configuration.tracePath): \(error.message)")
    } catch let error as TraceError {
      throw Failure(message: "\(configuration.tracePath): \(error.message)")
    }
    var generated = configuration
    generated.readPath = path
    return try body(generated)
  }

  /// What `run` and `sweep` print after the table: written files.
  static func written(_ options: ReplayOptions) -> String {
    var lines: [String] = []
    if let output = options.output, output != "-" { lines.append("wrote \(output)") }
    if let json = options.json { lines.append("wrote \(json)") }
    if let series = options.windowSeries { lines.append("wrote \(series)") }
    if let path = options.disagreements { lines.append("wrote \(path)") }
    if let report = options.report { lines.append("wrote \(report)/ (README.md, report.csv, charts)") }
    return lines.map { $0 + "\n" }.joined()
  }
}
