import ArgumentParser
import CacheCore
import Replay
import Traces

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `cachelab convert`: any readable trace to oracle-general, lcs, cachelab, csv or txt, optionally
/// sliced, sampled and compressed.
struct Convert: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract:
      "Convert a trace to oracle-general, lcs, cachelab, csv or txt, optionally sliced, sampled and compressed.",
    discussion: """
      Reads IN in any format CacheLab reads (inferred as for 'run', or --format) and writes \
      OUT in the format --to names, else the one OUT's suffix names (.oracleGeneral.bin, \
      .lcs, .cachelab.csv, .csv, .txt), compressed when OUT ends in .zst, .xz or .gz. The \
      cachelab output keeps puts, deletes, event rows and TTLs; the others write the get \
      requests (time, key, size as each format holds them). oracle-general and \
      lcs outputs carry exact next-access indices, computed by one backward pass over the \
      written file (memory: one entry per distinct object); everything else streams. \
      --num-req keeps the first N requests, --sample R the objects of a spatial sample, \
      --ignore-size writes every size as 1. The output appears atomically.

      A trace with HTTP attributes (har, access-log, w3c, squid, or a cachelab CSV with \
      them) converted to cachelab keeps every attribute, the URLs as keys and what a real \
      cache did (the observed column), so the file replays with the same hit ratios. \
      --anonymize replaces hosts, path segments, queries and entity tags by keyed hashes \
      (HMAC-SHA-256) that keep the scheme, port, path depth and extension; no cookie or \
      credential is ever written. Without =SALT the salt is random; give the same SALT to \
      get the same names across files.

      Examples:
        cachelab convert ../shared/traces/lirs/cpp.trace cpp.oracleGeneral.bin.zst
        cachelab convert big.oracleGeneral.bin.zst small.lcs --num-req 1000000 --sample 0.1
        cachelab convert app.har app.cachelab.csv --anonymize=team-secret
      """)

  @Argument(help: ArgumentHelp("The trace to read (FORMAT:PATH accepted).", valueName: "in"))
  var input: String

  @Argument(help: ArgumentHelp("The file to write.", valueName: "out"))
  var output: String

  @Option(help: ArgumentHelp("Format of IN (inferred when omitted).", valueName: "name[:k=v,...]"))
  var format: String?

  @Option(help: ArgumentHelp("Format of OUT; default: from OUT's suffix.", valueName: "format"))
  var to: OutputFormat?

  @Option(name: .customLong("num-req"), help: ArgumentHelp("Write only the first N requests.", valueName: "N"))
  var requestLimit: Int64?

  @Option(help: ArgumentHelp("Keep a spatial sample of this fraction of the objects (0 < R <= 1).", valueName: "R"))
  var sample: Double?

  @Flag(help: "Write every object size as 1.")
  var ignoreSize = false

  @Option(
    name: .customLong("anonymize"),
    help: ArgumentHelp(
      "Replace URLs and entity tags by keyed hashes (HTTP traces to cachelab; a bare --anonymize salts at random).",
      valueName: "salt"))
  var anonymizeSalt: String?

  /// A bare `--anonymize` (see ``OptionalValues``).
  @Flag(name: .customLong("anonymize-random"), help: .hidden)
  var anonymizeRandomly = false

  /// Whether keys are anonymized.
  var anonymizes: Bool { anonymizeSalt != nil || anonymizeRandomly }

  @Flag(help: "Do not print the summary line.")
  var quiet = false

  /// The formats `convert` writes.
  enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case oracleGeneral = "oracle-general"
    case lcs, csv, txt, cachelab
  }

  func validate() throws {
    if let requestLimit, requestLimit <= 0 { throw ValidationError("--num-req must be positive") }
    if let sample, !(sample > 0 && sample <= 1) { throw ValidationError("--sample must be in (0, 1]") }
    guard !output.isEmpty else { throw ValidationError("OUT must not be empty") }
    var paths = PathCheck()
    paths.read("IN", format == nil ? TraceSpec.shorthand(input).path : input)
    paths.write("OUT", output)
    try paths.check()
    if anonymizeSalt == "" { throw ValidationError("--anonymize=SALT needs a salt (or give --anonymize alone)") }
    if anonymizeSalt != nil, anonymizeRandomly { throw ValidationError("--anonymize is given twice; give it once") }
    if anonymizes, try targetFormat() != .cachelab {
      throw ValidationError("--anonymize writes the cachelab format (OUT.cachelab.csv or --to cachelab)")
    }
    _ = try targetFormat()
  }

  /// `--to`, else the format OUT's suffix names.
  func targetFormat() throws -> OutputFormat {
    if let to { return to }
    let name = Compression.strippingSuffix(output).lowercased()
    if name.hasSuffix(".oraclegeneral.bin") || name.hasSuffix(".oraclegeneral") { return .oracleGeneral }
    if name.hasSuffix(".lcs") { return .lcs }
    if name.hasSuffix(".cachelab.csv") { return .cachelab }
    if name.hasSuffix(".csv") { return .csv }
    if name.hasSuffix(".txt") { return .txt }
    throw ValidationError(
      "cannot tell the output format from '\(output)'; name it .oracleGeneral.bin, .lcs, .cachelab.csv, .csv or .txt (optionally + .zst, .xz, .gz) or pass --to"
    )
  }

  func run() throws {
    try CLIErrors.translating {
      let (shortFormat, path) = format == nil ? TraceSpec.shorthand(input) : (nil, input)
      let spec = try TraceSpec(format: format ?? shortFormat, inferringFrom: path)
      let slice = TraceSlice(requestLimit: requestLimit, sampleRate: sample ?? 1)
      let reader = slice.apply(to: try spec.open(path))
      let compression = Compression.named(byPath: output)
      let plainPath = compression == nil ? output : output + ".plain-tmp"
      defer { if compression != nil { unlink(plainPath) } }
      let writer: any TraceWriter
      switch try targetFormat() {
      case .oracleGeneral: writer = try OracleGeneralWriter(path: plainPath, computeNextAccess: true)
      case .lcs: writer = try LCSWriter(path: plainPath)
      case .csv: writer = try CSVTraceWriter(path: plainPath)
      case .txt: writer = try TextKeyWriter(path: plainPath)
      case .cachelab:
        writer = try CacheLabTraceWriter(
          path: plainPath, httpColumns: reader.traits.hasAttributes, names: try keyNames(reader))
      }
      let batch = RequestBatch(capacity: 1 << 16)
      var written: Int64 = 0
      var otherRows: Int64 = 0
      let bar = ProgressBar(label: "converting", quiet: quiet)
      while try reader.read(into: batch) {
        for index in 0..<batch.count {
          var request = batch[index]
          guard request.operation == .get || writer.keepsEveryRow else { continue }
          if ignoreSize, request.operation != .event { request.size = 1 }
          try writer.write(request, attributes: batch.hasAttributes ? batch.attributes(index) : nil)
          if request.operation == .get { written += 1 } else { otherRows += 1 }
        }
        bar.update(reader.requestsRead, nil)
      }
      bar.finish()
      try writer.commit()
      if let compression {
        let packed = try AtomicFileWriter(path: output)
        try compression.compress(file: plainPath, into: packed)
        try packed.commit()
      }
      if !quiet {
        print(
          "wrote \(output): \(written) requests\(otherRows > 0 ? " + \(otherRows) other rows" : "") as \(try targetFormat().rawValue)\(compression.map { ", \($0.rawValue)" } ?? "")"
            + (anonymizeRandomly
              ? ", anonymized (random salt)" : anonymizeSalt != nil ? ", anonymized (given salt)" : ""))
      }
    }
  }

  /// How the cachelab output names keys: the URLs an HTTP reader records, anonymized when
  /// asked. `--anonymize` needs URLs to hide: any other trace is refused.
  private func keyNames(_ reader: any TraceReader) throws -> CacheLabTraceWriter.KeyNames? {
    guard let book = reader.trafficBook else {
      if anonymizes {
        throw ValidationError("--anonymize needs an HTTP trace (har, access-log, w3c, squid): this one has no URLs")
      }
      return nil
    }
    book.isRecordingURLs = true
    let anonymizer =
      anonymizeRandomly ? URLAnonymizer.randomlySalted() : anonymizeSalt.map { URLAnonymizer(salt: Array($0.utf8)) }
    return CacheLabTraceWriter.KeyNames(book: book, anonymizer: anonymizer)
  }
}
