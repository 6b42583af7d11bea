import ArgumentParser
import Traces

/// What to replay and through which caches: listed first in help, as `--trace` is required.
struct TraceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The trace file to replay (required; run and sweep can take it from --config), or gen:NAME[:k=v,...] for a synthetic trace generated per run (and per --repeat seed) by a generator of 'cachelab gen', e.g. gen:zipf:objects=N,requests=M,alpha=A.",
      valueName: "path"))
  var trace: String?

  @Option(
    help: ArgumentHelp(
      "Trace format, optionally with parameters (e.g. csv:key-col=2); inferred from the file name when omitted. One of: \(TraceFormat.all.map(\.name).joined(separator: ", ")).",
      valueName: "name[:k=v,...]"))
  var format: String?

  @Option(help: ArgumentHelp("Comma-separated policies, e.g. lru,fifo,clock:bits=2,sieve.", valueName: "list"))
  var policies: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Comma-separated cache sizes: 512, 64KiB, 1.5GiB, fractions of the working set such as 0.1, or log:MIN:MAX:N for N log-spaced sizes.",
      valueName: "list"))
  var sizes: String?

  @Flag(help: "Object mode: treat every object as size 1; sizes count objects.")
  var ignoreSize = false
}
