import ArgumentParser
import CacheCore
import Engine
import Gate
import Reports

/// `cachelab calibrate`: this machine's file-store costs, fitted and written as a profile.
struct Calibrate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Measure the file store's real costs on this machine and fit a latency profile.",
    discussion: """
      Times the file backend's own operations in a folder calibrate/ under DIR (emptied \
      afterwards): an atomic write (temporary file, fsync, rename, folder fsync), a verified \
      read of the file just written (warm), the same read straight after a small fsynced \
      write (read-after-write) and, on Linux, again after posix_fadvise(DONTNEED) \
      dropped its pages (cold; the kernel's inode and directory caches stay), a header date \
      update, a delete, and the start-up scan of stores of 16, 64 and 256 objects. Each size \
      is measured --repeat times, sizes in a seeded shuffled order per round. Per operation it \
      fits fixed + bytes / bandwidth to each size's median (GSL weighted least squares, \
      weights 1 / median²) and prints the fixed part and the bandwidth with 95 % intervals \
      and R²; a bandwidth whose interval is not wholly positive is reported as none \
      measurable (the size made no difference). The spread is the p90 over the median of \
      single operations' times, each over the median of its size's times taken alike. \
      --output writes the disk-read (warm), disk-read-after-write and disk-write costs with \
      their spread (~SPREAD), disk-touch and disk-delete as a latency profile for \
      --latency-profile, with every fit as notes; --chart draws every measured point and the \
      fitted lines on log-log axes. See docs/latency.md. Exit 0: measured; 1: the folder \
      cannot be used; 64: bad arguments.

      Examples:
        cachelab calibrate --disk-backend file:/var/tmp/cachelab --output disk.toml --chart disk.svg
        cachelab calibrate --disk-backend file:store --sizes 4KiB..1MiB --repeat 3
        cachelab run --trace Traces/http-demo.cachelab.csv --preset nuke --latency-profile disk.toml
      """)

  @Option(
    help: ArgumentHelp("Where to measure: file:DIR, a folder on the disk to calibrate.", valueName: "backend"))
  var diskBackend: String

  @Option(
    help: ArgumentHelp(
      "Object sizes: A..B for the powers of two from A to B, or a comma-separated list. (default: 1KiB..16MiB)",
      valueName: "sizes"))
  var sizes: String = "1KiB..16MiB"

  @Option(name: .customLong("repeat"), help: "Measurements of each operation at each size (at least 3).")
  var repeats: Int = 5

  @Option(help: "Seed of the order sizes are measured in.")
  var seed: UInt64 = 1

  @Option(help: ArgumentHelp("Write the fitted disk costs as a latency profile (TOML).", valueName: "profile.toml"))
  var output: String?

  @Option(help: ArgumentHelp("Draw the measured points and fitted lines (SVG).", valueName: "FILE.svg"))
  var chart: String?

  @Flag(help: "Do not print progress.")
  var quiet = false

  /// The folder to measure in.
  var directory: String {
    get throws {
      guard diskBackend.hasPrefix("file:"), diskBackend.count > 5 else {
        throw ValidationError(
          "--disk-backend must be file:DIR: calibrate measures a real folder (the simulated disk has nothing to measure)"
        )
      }
      return String(diskBackend.dropFirst(5))
    }
  }

  /// The sizes `--sizes` names, ascending.
  static func parseSizes(_ text: String) throws -> [Int64] {
    let parts = text.components(separatedBy: "..")
    if parts.count == 2 {
      guard let low = ByteCount.parse(parts[0]), let high = ByteCount.parse(parts[1]), low >= 1, high >= low,
        high <= 1 << 30
      else {
        throw ValidationError(
          "--sizes \(text): A..B needs byte counts with 1 ≤ A ≤ B ≤ 1GiB (e.g. 1KiB..16MiB)")
      }
      var result: [Int64] = []
      var size = Int64(1) << Int64(63 - low.leadingZeroBitCount)
      if size < low { size <<= 1 }
      while size <= high {
        result.append(size)
        size <<= 1
      }
      guard result.count >= 3 else {
        throw ValidationError("--sizes \(text) holds \(result.count) powers of two; a fit needs at least 3")
      }
      return result
    }
    var result: [Int64] = []
    for item in text.split(separator: ",") {
      guard let size = ByteCount.parse(String(item)), size >= 1, size <= 1 << 30 else {
        throw ValidationError("--sizes: '\(item)' is no byte count from 1 to 1GiB")
      }
      result.append(size)
    }
    guard Set(result).count >= 3 else { throw ValidationError("--sizes needs at least 3 distinct sizes for a fit") }
    return Array(Set(result)).sorted()
  }

  func validate() throws {
    _ = try directory
    _ = try Self.parseSizes(sizes)
    guard (3...1000).contains(repeats) else { throw ValidationError("--repeat must be in 3...1000") }
    if let chart, !chart.lowercased().hasSuffix(".svg") {
      throw ValidationError("--chart writes SVG: name it FILE.svg")
    }
    var paths = PathCheck()
    paths.write("--output", output)
    paths.write("--chart", chart)
    try paths.check()
  }

  func run() throws {
    try CLIErrors.translating {
      let folder = try directory + "/calibrate"
      let sizes = try Self.parseSizes(sizes)
      let outputs = try [output, chart].compactMap { $0 }.map { try AtomicFileWriter(path: $0) }
      let machine = MachineRecord.current()
      let calibration: LatencyCalibration
      do {
        let probe = try FileStoreProbe(directory: folder)
        defer { _ = try? FileStoreContents.empty(folder) }
        calibration = try LatencyCalibration.measure(
          probe, sizes: sizes, repeats: repeats, seed: seed,
          progress: { step in if !quiet { StandardError.write("cachelab calibrate: \(step)\n") } })
      }
      let made = MachineRecord.now()
      print("calibrated \(folder) on \(machine.summary), \(made)")
      print(
        "\(sizes.count) sizes (\(ByteCount.exact(sizes[0]))..\(ByteCount.exact(sizes.last!))) × \(repeats) repeats"
          + (calibration.measuredCold ? "" : "; cold reads not measured (no posix_fadvise here)"))
      print(calibration.table(), terminator: "")
      var next = 0
      if output != nil {
        try outputs[next].write(
          calibration.profile(
            name: "calibrated \(folder)", source: "cachelab calibrate on \(machine.summary), \(made)"))
        next += 1
      }
      if chart != nil {
        try outputs[next].write(calibration.chart(title: "File store costs on \(machine.host)"))
      }
      for writer in outputs { try writer.commit() }
    }
  }
}
