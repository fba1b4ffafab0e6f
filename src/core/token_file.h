// A text input file as whitespace-separated fields, each remembering its line: what the readers
// of other simulators' files (HPCC's ns-3, SimAI) read as their C++ `>>` does, with errors that
// name the file, the line and the field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dcqcn {

class TokenFile {
 public:
  struct Token {
    std::string text;
    int line;
  };
  // Reads `path` whole (at most 4 GiB); `what` names the file in messages ("topology": "PATH:
  // cannot read topology file: ...", "PATH:LINE: topology: ...").
  TokenFile(const std::string& path, std::string_view what);
  // The same over `text` already read (named `path` in messages).
  TokenFile(const std::string& path, std::string_view what, const std::string& text);

  // The next field; `expected` describes it for the message when the file ends early.
  const Token& Next(const std::string& expected);
  // An integer field in [lo, hi].
  int64_t Int(const std::string& expected, int64_t lo, int64_t hi);
  // Whether `text` is a whole decimal integer in [lo, hi] (then in `value`), as Int reads one.
  static bool ParseInt(const std::string& text, int64_t lo, int64_t hi, int64_t* value);
  // Whether every field has been read.
  bool done() const { return next_ >= tokens_.size(); }
  // The line of the next field (of the last one when every field has been read).
  int line() const { return done() ? last_line_ : tokens_[next_].line; }
  // The fields of line `line`, from the next one on, as read by Next (the rest of a header line).
  std::vector<Token> RestOfLine(int line);

  // Throws InputError "PATH:LINE: WHAT: MESSAGE".
  [[noreturn]] void Fail(int line, const std::string& message) const;

 private:
  void Split(const std::string& text);
  std::string path_;
  std::string what_;
  std::vector<Token> tokens_;
  size_t next_ = 0;
  int last_line_ = 1;
};

}  // namespace dcqcn
