import ArgumentParser

/// Which baseline `regress` checks or makes: exactly one of the two is required, so help
/// lists them first.
struct RegressTarget: ParsableArguments {
  @Option(help: ArgumentHelp("Check the baseline CSV reports in this directory.", valueName: "dir"))
  var baseline: String?

  @Option(
    help: ArgumentHelp(
      "Make a baseline in this directory from the replay options (--trace, --policies, --sizes, --preset, --repeat, ...), then stop.",
      valueName: "dir"))
  var create: String?
}
