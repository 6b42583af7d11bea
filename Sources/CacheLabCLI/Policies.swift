import ArgumentParser
import CacheCore
import Policies

/// `cachelab policies`: the registry, with parameters and defaults.
struct Policies: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "policies",
    abstract: "List the eviction policies with their parameters and defaults.",
    discussion: "Examples:\n  cachelab policies\n  cachelab policies --details\n  cachelab policies --names\n")

  @Flag(help: "Also show each policy's origin and memory per object.")
  var details = false

  @Flag(help: "Print only the names, comma-separated (for scripts).")
  var names = false

  func run() {
    if names {
      print(PolicyRegistry.all.map(\.descriptor.name).joined(separator: ","))
      return
    }
    print(Self.listing(details: details), terminator: "")
  }

  static func listing(details: Bool) -> String {
    var text = ""
    let width = PolicyRegistry.all.map(\.descriptor.name.count).max() ?? 0
    for entry in PolicyRegistry.all {
      let descriptor = entry.descriptor
      let pad = String(repeating: " ", count: width - descriptor.name.count)
      text += "\(descriptor.name)\(pad)  \(descriptor.summary)\n"
      let indent = String(repeating: " ", count: width + 2)
      for parameter in descriptor.parameters {
        text +=
          "\(indent)\(parameter.name)=\(parameter.defaultValue)  \(parameter.help) (\(parameter.valueDescription))\n"
      }
      if !descriptor.aliases.isEmpty { text += "\(indent)aliases: \(descriptor.aliases.joined(separator: ", "))\n" }
      if details {
        text += "\(indent)origin: \(descriptor.origin)\n"
        text += "\(indent)memory per object: \(descriptor.memoryPerObject)\n"
      }
    }
    return text
  }
}
