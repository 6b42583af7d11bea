import ArgumentParser

/// An optional option with a fixed set of values whose default is applied by the command
/// (so it can tell "not given" from "given"): help states the values and the default in
/// one parenthesis, and shell completion offers the values.
protocol ChoiceOption: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension ChoiceOption {
  /// Empty, so the help generator does not add a second "(values: ...)"; see ``valuesAndDefault(_:)``.
  public static var allValueStrings: [String] { [] }

  public static var defaultCompletionKind: CompletionKind { .list(allCases.map(\.rawValue)) }

  /// `(values: a, b; default: a)` for the option's help text.
  static func valuesAndDefault(_ value: Self) -> String {
    "(values: \(allCases.map(\.rawValue).joined(separator: ", ")); default: \(value.rawValue))"
  }
}
