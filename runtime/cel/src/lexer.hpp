// The CEL lexer: source text -> tokens with byte offsets. String and bytes literals are decoded
// here (escapes, raw and triple-quoted forms); a malformed token becomes an Error token carrying
// the message.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rr::cel {

enum class Tok {
  End,
  Ident,        // also the keywords true, false, null, in and the reserved words
  QuotedIdent,  // `a-b`: only where a field name may stand
  Int,          // text holds the digits as written (decimal or 0x...)
  Uint,
  Double,
  String,  // text holds the decoded value
  Bytes,
  Punct,  // text holds the operator: ( ) [ ] { } . , : ? ! + - * / % < <= > >= == != && ||
  Error,  // text holds the message
};

struct Token {
  Tok kind = Tok::End;
  std::string text;
  std::size_t offset = 0;
  bool is(std::string_view punct) const { return kind == Tok::Punct && text == punct; }
};

std::vector<Token> lex(std::string_view source);

// CEL's reserved words (true, false, null, in and the words kept for the future: as, break, ...,
// namespace, ...): never identifiers, though they may name fields.
bool is_reserved_word(std::string_view word);

}  // namespace rr::cel
