import ArgumentParser
import CacheCore
import Workloads

/// `cachelab gen http`: a seeded HTTP workload in CacheLab's CSV format.
struct GenHTTP: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "http",
    abstract: "Write a seeded HTTP workload (CacheLab CSV) for the cache engine.",
    discussion: """
      Zipf popularity over URLs of two content classes (images and JSON data), per-object \
      Cache-Control, Expires, ETag and Last-Modified, origin changes as a Poisson process, \
      occasional origin failures, and app sessions with background, foreground, terminate, \
      launch and memory-warning events. The same options always write the same file. See \
      Traces/README.md for the columns.

      Examples:
        cachelab gen http --requests 200000 --seed 7 --output http.cachelab.csv
        cachelab gen http --requests 10000 --failure-rate 0.05 --output flaky.cachelab.csv
      """)

  @Option(help: ArgumentHelp("Output file (written atomically).", valueName: "path"))
  var output: String

  @Option(help: "Number of requests (event rows come on top).")
  var requests: Int64 = 100_000

  @Option(help: "Random seed.")
  var seed: UInt64 = 1

  @Option(help: "Number of distinct URLs.")
  var objects: Int = 10_000

  @Option(help: "Zipf exponent of URL popularity.")
  var alpha: Double = 0.9

  @Option(help: "Fraction of URLs that are images.")
  var imageFraction: Double = 0.6

  @Option(help: "Requests per second of trace time while the app is in use.")
  var rate: Double = 5

  @Option(help: "Fraction of requests the origin fails (half 503, half network errors).")
  var failureRate: Double = 0.005

  @Flag(help: "Do not print the progress bar or the summary line.")
  var quiet = false

  func validate() throws {
    guard requests > 0 else { throw ValidationError("--requests must be positive") }
    guard objects > 0, objects <= 1 << 28 else { throw ValidationError("--objects must be in 1...2^28") }
    guard alpha >= 0, alpha.isFinite else { throw ValidationError("--alpha must be a non-negative number") }
    guard (0...1).contains(imageFraction) else { throw ValidationError("--image-fraction must be in 0...1") }
    try GenLimits.checkSpan(requests: Int64(requests), rate: rate)
    guard (0...1).contains(failureRate) else { throw ValidationError("--failure-rate must be in 0...1") }
  }

  func run() throws {
    try CLIErrors.translating {
      let file = try AtomicFileWriter(path: output)
      let workload = HTTPWorkload(
        requests: requests, seed: seed, objects: objects, alpha: alpha, imageFraction: imageFraction, rate: rate,
        failureRate: failureRate)
      let bar = ProgressBar(label: "generating", quiet: quiet)
      var rows: Int64 = 0
      try workload.generate { (line) throws(FileError) in
        try file.write(line)
        rows += 1
        if rows & 0xFFFF == 0 { bar.update(rows, Int64(requests)) }
      }
      bar.finish()
      try file.commit()
      if !quiet { print("wrote \(output): \(requests) HTTP requests over \(objects) URLs, seed \(seed)") }
    }
  }
}
