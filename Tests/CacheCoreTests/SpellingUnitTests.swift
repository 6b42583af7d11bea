import CacheCore
import Testing

@Suite struct SpellingUnitTests {
  @Test func closestNamesAreLikelyTyposOnly() {
    #expect(Spelling.closest(to: "zzzzzz", among: ["run", "sweep"]) == nil, "no far-fetched guesses")
    #expect(Spelling.closest(to: "lur", among: ["lru", "lfu"]) == "lru", "a swap is one edit")
    #expect(Spelling.closest(to: "--policy", among: ["--policies", "--preset"]) == "--policies")
    #expect(Spelling.closest(to: "lru", among: ["lru"]) == nil, "an exact name needs no suggestion")
    #expect(Spelling.suggestion(for: "SIEV", among: ["sieve"]) == " (did you mean 'sieve'?)")
  }
}

extension SpellingUnitTests {
  @Test func shortWordsGetOnlyOneEditOfSlack() {
    #expect(Spelling.closest(to: "nope", among: ["opt", "lru"]) == nil)
  }
}
