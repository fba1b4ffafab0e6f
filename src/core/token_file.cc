#include "core/token_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "core/error.h"
#include "core/input_file.h"

namespace dcqcn {

TokenFile::TokenFile(const std::string& path, std::string_view what) : path_(path), what_(what) {
  Split(ReadInputFile(path, fmt::format("{} file", what), size_t{4} << 30));
}

TokenFile::TokenFile(const std::string& path, std::string_view what, const std::string& text)
    : path_(path), what_(what) {
  Split(text);
}

void TokenFile::Split(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream fields(line);
    std::string field;
    while (fields >> field) tokens_.push_back({field, line_no});
  }
  last_line_ = std::max(line_no, 1);
}

const TokenFile::Token& TokenFile::Next(const std::string& expected) {
  if (next_ >= tokens_.size()) {
    Fail(last_line_, fmt::format("expected {}, but the file ends", expected));
  }
  return tokens_[next_++];
}

bool TokenFile::ParseInt(const std::string& text, int64_t lo, int64_t hi, int64_t* value) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (end != text.c_str() + text.size() || errno != 0 || v < lo || v > hi) return false;
  *value = v;
  return true;
}

int64_t TokenFile::Int(const std::string& expected, int64_t lo, int64_t hi) {
  const Token& t = Next(expected);
  int64_t v = 0;
  if (!ParseInt(t.text, lo, hi, &v)) {
    Fail(t.line, fmt::format("expected {} ({}..{}), got \"{}\"", expected, lo, hi, t.text));
  }
  return v;
}

std::vector<TokenFile::Token> TokenFile::RestOfLine(int line) {
  std::vector<Token> rest;
  while (!done() && tokens_[next_].line == line) rest.push_back(tokens_[next_++]);
  return rest;
}

void TokenFile::Fail(int line, const std::string& message) const {
  throw InputError(fmt::format("{}:{}: {}: {}", path_, line, what_, message));
}

}  // namespace dcqcn
