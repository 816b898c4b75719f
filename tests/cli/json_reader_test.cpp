// The strict JSON reader behind `nqueens merge`: RFC 8259 grammar, exact
// integers, every refusal naming its byte; and the doubles the CLI writes
// read back exactly.

#include "cli/io/json_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "cli/io/json.hpp"

namespace {

using nqueens::uint128;
using nqueens::cli::json_error;
using nqueens::cli::json_members;
using nqueens::cli::json_object;
using nqueens::cli::json_type;

constexpr uint128 any = std::numeric_limits<uint128>::max();

// The message of the json_error that parsing `text` throws ("" if none).
std::string parse_error(const std::string& text) {
  try {
    json_members::parse(text);
  } catch (const json_error& e) {
    return e.what();
  }
  return "";
}

bool parses(const std::string& text) { return parse_error(text).empty(); }

// The message of the json_error that reading "v" from `text` as a count throws.
std::string count_error(const std::string& text, uint128 lo = 0, uint128 hi = any) {
  try {
    json_members::parse(text).get_unsigned("v", lo, hi);
  } catch (const json_error& e) {
    return e.what();
  }
  return "";
}

TEST(JsonReaderTest, ReadsACountOutput) {
  const json_members m = json_members::parse(
      " {\"n\":12,\"total\":14200,\"unique\":null,\"verified\":true,\"engine\":\"symmetric\",\"seconds\":0.012345,"
      "\"rows\":[{\"a\":[1,2,{}]},[]],\"plan_fingerprint\":\"0123456789abcdef\"}\r\n\t");
  EXPECT_EQ(m.get_unsigned("n", 1, 32), 12u);
  EXPECT_EQ(m.get_unsigned("total", 0, any), 14200u);
  EXPECT_EQ(m.get_string("engine"), "symmetric");
  EXPECT_EQ(m.get_string("plan_fingerprint"), "0123456789abcdef");
  ASSERT_NE(m.find("unique"), nullptr);
  EXPECT_EQ(m.find("unique")->type, json_type::null);
  EXPECT_EQ(m.find("verified")->type, json_type::boolean);
  EXPECT_EQ(m.find("verified")->text, "true");
  EXPECT_EQ(m.find("seconds")->type, json_type::number);
  EXPECT_EQ(m.find("rows")->type, json_type::array);
  EXPECT_TRUE(m.find("rows")->strings.empty());
  EXPECT_EQ(m.find("missing"), nullptr);
  EXPECT_TRUE(parses("{}"));
  // An array's strings are kept, decoded and in order; its other elements
  // (and a nested array's strings) are not.
  const json_members isas =
      json_members::parse(R"({"isas":["portable",1,"avx\u0032",["nested"],null,{"k":"v"},"avx512"]})");
  EXPECT_EQ(isas.find("isas")->strings, (std::vector<std::string>{"portable", "avx2", "avx512"}));
}

// What the CLI writes, the reader reads back to the same double, bit for
// bit: tiny figures (a thread-hour of 1e-8 was written as 0.000000), huge
// ones and ordinary ones. JSON has no NaN or infinity: they are null.
TEST(JsonReaderTest, DoublesTheWriterWritesReadBackExactly) {
  const double values[] = {1.113e-08,
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(),
                           1e-300,
                           std::numeric_limits<double>::max(),
                           1e300,
                           123456789012345678.0,
                           0.1,
                           1.0 / 3,
                           2.5,
                           0.001916,
                           -7.25e-5,
                           0.0};
  for (const double value : values) {
    const std::string text = json_object().add("v", value).str();
    const json_members m = json_members::parse(text);
    ASSERT_EQ(m.find("v")->type, json_type::number) << text;
    const double back = std::strtod(m.find("v")->text.c_str(), nullptr);
    // Bit for bit (-0.0 too): the values' own == would pass -0.0 for 0.0.
    EXPECT_EQ(std::memcmp(&back, &value, sizeof value), 0)  // NOLINT(bugprone-suspicious-memory-comparison)
        << text << " for " << value;
  }
  for (const double value :
       {std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    const std::string text = json_object().add("v", value).str();
    EXPECT_EQ(json_members::parse(text).find("v")->type, json_type::null) << text;
  }
}

// A string of bytes that are no UTF-8 (a path or a CPU name in another
// encoding) is written as valid JSON: each such byte a U+FFFD, the rest as
// it was, so that the reader here, and any other, takes it back.
TEST(JsonReaderTest, BytesThatAreNoUtf8AreWrittenAsReplacementCharacters) {
  const std::string given = "caf\xc3\xa9 \xff\xfe \xe2\x82 \xed\xa0\x80 \xc0\xaf \xf0\x9f\x98\x80 \xf4\x90\x80\x80\x7f";
  const std::string text = json_object().add("v", given).str();
  const std::string back = json_members::parse(text).get_string("v");
  const std::string r = "\xef\xbf\xbd";  // U+FFFD
  EXPECT_EQ(back, "caf\xc3\xa9 " + r + r + " " + r + r + " " + r + r + r + " " + r + r + " \xf0\x9f\x98\x80 " + r + r +
                      r + r + "\x7f");
}

// What the writer escapes, the reader takes back as it was: quotes,
// backslashes (a Windows path), every control byte up to 0x1f.
TEST(JsonReaderTest, EscapedStringsReadBackAsTheyWere) {
  std::string given = "C:\\data\\b \"q\" ";
  for (char c = 1; c < 0x20; ++c) given += c;
  given += "\x7f end";
  const std::string text = json_object().add("v", given).str();
  EXPECT_EQ(text.find('\x1f'), std::string::npos) << "a raw control byte is no JSON";
  EXPECT_EQ(json_members::parse(text).get_string("v"), given) << text;
}

TEST(JsonReaderTest, CountsAreExact128BitIntegers) {
  EXPECT_EQ(json_members::parse("{\"v\":340282366920938463463374607431768211455}").get_unsigned("v", 0, any), any);
  EXPECT_EQ(json_members::parse("{\"v\":0}").get_unsigned("v", 0, any), 0u);
  // Either side of 2^64: the text as written decides, not a 64-bit conversion.
  EXPECT_EQ(json_members::parse("{\"v\":18446744073709551615}").get_unsigned("v", 0, any), (uint128{1} << 64) - 1);
  EXPECT_EQ(json_members::parse("{\"v\":18446744073709551616}").get_unsigned("v", 0, any), uint128{1} << 64);
  EXPECT_EQ(json_members::parse("{\"v\":-9223372036854775809}").find("v")->text, "-9223372036854775809");
  // 2^128 and a value that wraps to a small number if value * 10 is unchecked.
  EXPECT_EQ(count_error("{\"v\":340282366920938463463374607431768211456}"), "byte 6: \"v\" does not fit in 128 bits");
  EXPECT_EQ(count_error("{\"v\":340282366920938463463374607431768218450}"), "byte 6: \"v\" does not fit in 128 bits");
  EXPECT_EQ(count_error("{\"v\":\"6994\"}"), "byte 6: \"v\" must be a number, not a string");
  EXPECT_EQ(count_error("{\"v\":null}"), "byte 6: \"v\" must be a number, not null");
  for (const char* text : {"{\"v\":-5}", "{\"v\":-0}", "{\"v\":1.0}", "{\"v\":1e3}", "{\"v\":1E+3}"}) {
    EXPECT_NE(count_error(text).find("must be a whole number without sign, fraction or exponent"), std::string::npos)
        << text;
  }
  EXPECT_EQ(count_error("{\"v\":33}", 1, 32), "byte 6: \"v\" 33 is out of range: expected an integer from 1 to 32");
  EXPECT_EQ(count_error("{\"v\":0}", 1, 32), "byte 6: \"v\" 0 is out of range: expected an integer from 1 to 32");
  // Past 128 bits in a narrow field: out of range, not wrapped into it.
  EXPECT_NE(count_error("{\"v\":340282366920938463463374607431768211468}", 1, 32).find("is out of range"),
            std::string::npos);
  EXPECT_EQ(count_error("{\"w\":1}"), "no \"v\" member");
}

TEST(JsonReaderTest, NumbersFollowTheGrammar) {
  for (const char* ok : {"0", "-0", "12", "-12.5", "1e5", "1E-5", "0.5e+10"}) {
    EXPECT_TRUE(parses(std::string("{\"v\":") + ok + "}")) << ok;
  }
  for (const char* bad : {"01", "-01", "1.", ".5", "+1", "-", "1e", "1e+", "0x10", "NaN", "Infinity", "1.5.2"}) {
    EXPECT_FALSE(parses(std::string("{\"v\":") + bad + "}")) << bad;
  }
  EXPECT_EQ(parse_error("{\"v\":012}"), "byte 7: leading zero in a number");
}

TEST(JsonReaderTest, RefusesDuplicateKeysAtEveryLevel) {
  EXPECT_EQ(parse_error("{\"n\":1,\"n\":2}"), "byte 8: duplicate key \"n\"");
  EXPECT_EQ(parse_error("{\"n\":1,\"\\u006e\":2}"), "byte 8: duplicate key \"n\"");  // the same key, escaped
  EXPECT_EQ(parse_error("{\"a\":{\"b\":1,\"b\":2}}"), "byte 13: duplicate key \"b\"");
  EXPECT_TRUE(parses("{\"a\":{\"b\":1},\"b\":{\"b\":2}}"));  // one key per object, not per file
}

TEST(JsonReaderTest, RefusesAnythingButWhitespaceAroundTheObject) {
  EXPECT_EQ(parse_error("{\"n\":1} x"), "byte 9: unexpected text after the object");
  EXPECT_EQ(parse_error("{\"n\":1}{}"),
            "byte 8: a second object after the first: give each shard's --json output as a file of its own");
  EXPECT_EQ(parse_error("{\"n\":1}\n{\"n\":2}\n"),
            "byte 9: a second object after the first: give each shard's --json output as a file of its own");
  EXPECT_EQ(parse_error(std::string("{\"n\":1}\0", 8)), "byte 8: unexpected text after the object");
  // A NUL byte is a byte that does not belong, not the end of the input.
  EXPECT_EQ(parse_error(std::string("{\"n\":1\0}", 8)), "byte 7: unexpected 0x00: expected ',' or '}'");
  EXPECT_TRUE(parses(" \t\r\n{\"n\":1} \t\r\n"));
  EXPECT_EQ(parse_error(""), "byte 1: expected a JSON object ('{')");
  EXPECT_EQ(parse_error("[1]"), "byte 1: expected a JSON object ('{')");
  EXPECT_EQ(parse_error("\xEF\xBB\xBF{}"), "byte 1: expected a JSON object ('{')");  // no byte-order mark
  EXPECT_EQ(parse_error("\f{}"), "byte 1: expected a JSON object ('{')");            // not JSON whitespace
  EXPECT_EQ(parse_error("{\"n\":1"), "byte 7: unexpected end of input: expected ',' or '}'");
  EXPECT_EQ(parse_error("{\"n\":1,}"), "byte 8: unexpected '}': expected a member name in double quotes");
  EXPECT_EQ(parse_error("{\"n\" 1}"), "byte 6: unexpected '1': expected ':'");
  EXPECT_EQ(parse_error("{'n':1}"), "byte 2: unexpected ''': expected a member name in double quotes");
  EXPECT_EQ(parse_error("{\"a\":[1,]}"), "byte 9: unexpected ']': expected a value");
  EXPECT_EQ(parse_error("{\"a\":tru}"), "byte 6: unexpected 't': expected true, false or null");
  EXPECT_EQ(parse_error("{\"a\":\x01}"), "byte 6: unexpected 0x01: expected a value");
}

TEST(JsonReaderTest, StringsAreValidatedAndDecoded) {
  const auto string_of = [](const std::string& json) { return json_members::parse(json).get_string("s"); };
  EXPECT_EQ(string_of(R"({"s":"a\"b\\c\/d\b\f\n\r\t"})"), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(string_of(R"({"s":"\u0041\u00e9\u20AC\ud83d\ude00"})"), "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  EXPECT_EQ(string_of("{\"s\":\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"}"), "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  EXPECT_EQ(string_of(R"({"s":"\u0000"})"), std::string(1, '\0'));
  EXPECT_EQ(parse_error("{\"s\":\"a\nb\"}"), "byte 8: raw control character 0x0a in a string (JSON needs an escape)");
  EXPECT_EQ(parse_error("{\"s\":\"\x1b[31m\"}"),
            "byte 7: raw control character 0x1b in a string (JSON needs an escape)");
  EXPECT_EQ(parse_error(R"({"s":"\x"})"), "byte 7: invalid escape sequence in a string");
  EXPECT_EQ(parse_error(R"({"s":"\u12G4"})"), "byte 11: unexpected 'G': expected a hex digit in a \\u escape");
  EXPECT_EQ(parse_error(R"({"s":"\ud83d"})"), "byte 7: unpaired high surrogate in a \\u escape");
  EXPECT_EQ(parse_error(R"({"s":"\ud83d\u0041"})"), "byte 7: unpaired high surrogate in a \\u escape");
  EXPECT_EQ(parse_error(R"({"s":"\ude00"})"), "byte 7: unpaired low surrogate in a \\u escape");
  EXPECT_EQ(parse_error("{\"s\":\"abc"), "byte 10: unexpected end of input in a string");
  // Each encoding's edges: the last of two bytes and the first of three, the
  // highest code point (a surrogate pair's last), a low surrogate's edges.
  EXPECT_EQ(string_of(R"({"s":"\u07ff\u0800\uffff"})"), "\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF");
  EXPECT_EQ(string_of(R"({"s":"\udbff\udfff\ud800\udc00"})"), "\xF4\x8F\xBF\xBF\xF0\x90\x80\x80");
  EXPECT_EQ(parse_error(R"({"s":"\udc00"})"), "byte 7: unpaired low surrogate in a \\u escape");
  EXPECT_EQ(parse_error(R"({"s":"\udfff"})"), "byte 7: unpaired low surrogate in a \\u escape");
  EXPECT_EQ(parse_error("{\"s\":\"a\x1f\"}"), "byte 8: raw control character 0x1f in a string (JSON needs an escape)");
  EXPECT_EQ(string_of("{\"s\":\" \x7f\"}"), " \x7f");  // DEL is no control character to JSON
  // Overlong, surrogate, past U+10FFFF, stray continuation, truncated, invalid lead.
  for (const char* bad : {"\xC0\xAF", "\xC1\xBF", "\xE0\x80\xAF", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xF0\x8F\xBF\xBF",
                          "\xF4\x90\x80\x80", "\x80", "\xE2\x82", "\xF5\x80\x80\x80", "\xFF"}) {
    EXPECT_EQ(parse_error(std::string("{\"s\":\"x") + bad + "\"}"), "byte 8: invalid UTF-8 in a string") << bad;
  }
  EXPECT_EQ(parse_error("{\"\xFF\":1}"), "byte 3: invalid UTF-8 in a string");  // keys too
}

TEST(JsonReaderTest, BoundsSizeAndDepth) {
  std::string padded = "{}";
  padded.resize(nqueens::cli::max_json_bytes, ' ');
  EXPECT_TRUE(parses(padded));
  padded += ' ';
  EXPECT_NE(parse_error(padded).find("larger than 1048576 bytes"), std::string::npos) << parse_error(padded);
  // The top-level object is level 1.
  const auto nested = [](std::size_t arrays) {
    return "{\"a\":" + std::string(arrays, '[') + std::string(arrays, ']') + "}";
  };
  EXPECT_TRUE(parses(nested(nqueens::cli::max_json_depth - 1)));
  EXPECT_NE(parse_error(nested(nqueens::cli::max_json_depth)).find("nested deeper than 64 levels"), std::string::npos);
  EXPECT_NE(parse_error(nested(100000)).find("nested deeper than 64 levels"), std::string::npos);  // no stack overflow
  // Objects in objects too: 64 levels read, 65 refused, 100 000 (under a
  // MiB) refused without a stack overflow.
  const auto objects = [](std::size_t levels) {
    std::string text;
    for (std::size_t i = 1; i < levels; ++i) text += "{\"a\":";
    return text + "{}" + std::string(levels - 1, '}');
  };
  EXPECT_TRUE(parses(objects(nqueens::cli::max_json_depth)));
  EXPECT_NE(parse_error(objects(nqueens::cli::max_json_depth + 1)).find("nested deeper than 64 levels"),
            std::string::npos);
  EXPECT_NE(parse_error(objects(100000)).find("nested deeper than 64 levels"), std::string::npos);
}

TEST(JsonReaderTest, MessagesQuoteTextSafely) {
  using nqueens::cli::quote_for_message;
  EXPECT_EQ(quote_for_message("engine"), "\"engine\"");
  EXPECT_EQ(quote_for_message("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quote_for_message("\x1b[2J\x7f"), "\"\\u001b[2J\\u007f\"");
  EXPECT_EQ(quote_for_message("\xC2\x9B"
                              "1m"),
            "\"\\u009b1m\"");                                         // C1 CSI
  EXPECT_EQ(quote_for_message("\xC2\x9F"), "\"\\u009f\"");            // the last C1 control
  EXPECT_EQ(quote_for_message("\xC2\xA0"), "\"\xC2\xA0\"");           // past them: kept as it is
  EXPECT_EQ(quote_for_message("\xC3\xA9\xFF"), "\"\xC3\xA9\\xff\"");  // é kept, a stray byte shown
  std::string cut = "\"";  // built by appends: GCC 12 misreads "\"" + string (-Wstringop-overflow)
  cut.append(40, 'k');
  cut += "...\"";
  EXPECT_EQ(quote_for_message(std::string(50, 'k')), cut);
  EXPECT_EQ(parse_error("{\"\\u001b\":1,\"\\u001b\":2}"), "byte 13: duplicate key \"\\u001b\"");
}

}  // namespace
