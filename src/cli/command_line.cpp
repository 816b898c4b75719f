#include "cli/command_line.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <string_view>

#include "cli/help_text.hpp"
#include "cli/message_text.hpp"
#include "cli/nearest_word.hpp"

namespace nqueens::cli {

namespace {

// Every spelling ("-t", "--threads") of the options in `options` that take
// the next argument as their value, read from cxxopts' own option list.
std::vector<std::string> value_option_names(const cxxopts::Options& options) {
  std::vector<std::string> names;
  for (const std::string& group : options.groups()) {
    for (const cxxopts::HelpOptionDetails& o : options.group_help(group).options) {
      // A flag has an implicit value ("true") and never takes the next argument.
      if (o.has_implicit) continue;
      if (!o.s.empty()) names.push_back("-" + o.s);
      for (const std::string& name : o.l) names.push_back("--" + name);
    }
  }
  return names;
}

}  // namespace

void print_help(cxxopts::Options& options, const std::string& tail) {
  // The board size operand has a group of its own, unlisted.
  std::cout << fit_help_text(options.help({""}) + '\n' + tail);
}

bool printed_help(const cxxopts::ParseResult& result, cxxopts::Options& options, const std::string& tail) {
  if (result.count("help") == 0) return false;
  print_help(options, tail);
  return true;
}

namespace {

// Every option of `options` with its details (positionals included).
std::vector<cxxopts::HelpOptionDetails> every_option(const cxxopts::Options& options) {
  std::vector<cxxopts::HelpOptionDetails> all;
  for (const std::string& group : options.groups()) {
    for (const cxxopts::HelpOptionDetails& o : options.group_help(group).options) all.push_back(o);
  }
  return all;
}

std::string spelling(const cxxopts::HelpOptionDetails& o) { return o.l.empty() ? "-" + o.s : "--" + o.l.front(); }

// A flag takes no value: "--json=false" would otherwise act as --json.
void refuse_flag_values(const std::vector<cxxopts::HelpOptionDetails>& all, const std::vector<std::string>& args) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") return;  // operands from here on
    const std::size_t equals = arg.find('=');
    if (!arg.starts_with("--") || equals == std::string::npos) continue;
    const std::string name = arg.substr(2, equals - 2);
    for (const cxxopts::HelpOptionDetails& o : all) {
      if (o.is_boolean && std::find(o.l.begin(), o.l.end(), name) != o.l.end()) {
        std::string message = "--" + name;
        message += " takes no value ('" + shown_operand(arg);
        message += "'): give --" + name;
        message += " alone, or leave it out";
        throw usage_error(message);
      }
    }
  }
}

// An option given twice would keep its last value in silence: refused, but
// for the operands, which list (the board size is checked on its own).
void refuse_repeats(const std::vector<cxxopts::HelpOptionDetails>& all, const cxxopts::ParseResult& result) {
  for (const cxxopts::HelpOptionDetails& o : all) {
    if (o.is_container) continue;
    const std::size_t given = result.count(o.l.empty() ? o.s : o.l.front());
    if (given > 1) {
      throw usage_error(spelling(o) + " was given " + std::to_string(given) + " times: give it once");
    }
  }
}

// The command's long option nearest `given` (dashes and any "=value" left
// out), when near enough to be a slip: a third of its letters wrong at most,
// or the start of one option alone. Empty when none is.
std::string nearest_option(const std::vector<cxxopts::HelpOptionDetails>& all, std::string_view given) {
  while (given.starts_with('-')) given.remove_prefix(1);
  given = given.substr(0, given.find('='));
  std::vector<std::string> names;
  for (const cxxopts::HelpOptionDetails& o : all) {
    for (const std::string& name : o.l) {
      if (name.size() >= 2) names.push_back(name);  // shorter: the operand, not an option
    }
  }
  const std::string best = nearest_word(names, given);
  return best.empty() ? best : "--" + best;
}

// "count" for `nqueens count`'s options, "" for a tool's own (nqueens-mpi).
std::string command_of(const cxxopts::Options& options) {
  const std::string& program = options.program();
  const std::size_t space = program.find(' ');
  return space == std::string::npos ? std::string() : program.substr(space + 1);
}

// How a message points at the command's options: "nqueens count --help".
std::string help_of(const cxxopts::Options& options) { return options.program() + " --help"; }

[[noreturn]] void refuse_unknown(const cxxopts::Options& options, const std::vector<cxxopts::HelpOptionDetails>& all,
                                 const std::string& option, const std::string& arg) {
  const std::string command = command_of(options);
  std::string text = "unknown option '" + shown_operand(option) + "'";
  if (option != arg) text += " (in '" + shown_operand(arg) + "')";
  if (!command.empty()) text += " for '" + command + "'";
  const std::string nearest = option.starts_with("--") || option.size() > 2 ? nearest_option(all, option) : "";
  if (!nearest.empty()) throw usage_error(text + ": did you mean '" + nearest + "'?");
  throw usage_error(text + " ('" + help_of(options) + "' lists its options)");
}

[[noreturn]] void refuse_missing_value(const cxxopts::Options& options, const std::string& option) {
  throw usage_error("option '" + option + "' needs a value, and none was given ('" + help_of(options) +
                    "' says what it takes)");
}

// The value of `option` given as the argument after it, args[i + 1]: one
// that reads as an option is refused, since a value forgotten there would
// make `--checkpoint --json` a journal named "--json" and no JSON. A value
// that starts with '-' can still be given as --option=value.
void refuse_option_as_value(const cxxopts::Options& options, const std::vector<std::string>& args, std::size_t i,
                            const std::string& option, const cxxopts::HelpOptionDetails& details) {
  if (i + 1 == args.size()) refuse_missing_value(options, option);
  const std::string& value = args[i + 1];
  if (value.size() < 2 || value[0] != '-' || looks_like_negative_number(value)) return;
  const std::string joined = (details.l.empty() ? option : "--" + details.l.front()) + "=" + value;
  throw usage_error("option '" + option + "' needs a value, and the next argument '" + shown_operand(value) +
                    "' is an option (to give it as the value, write '" + shown_operand(joined) + "')");
}

// Reads `args` as cxxopts will (its grammar, without a regex) and refuses in
// the tool's words what cxxopts would refuse in its own (curly quotes, no
// hint): an option the command does not have, with the nearest it has, and
// an option that takes a value given none.
void refuse_unknown_options(const cxxopts::Options& options, const std::vector<cxxopts::HelpOptionDetails>& all,
                            const std::vector<std::string>& args) {
  const auto find = [&](const auto& has_name) -> const cxxopts::HelpOptionDetails* {
    for (const cxxopts::HelpOptionDetails& o : all) {
      if (has_name(o)) return &o;
    }
    return nullptr;
  };
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") return;  // operands from here on
    if (arg.size() < 2 || arg[0] != '-') continue;
    if (arg[1] == '-') {
      // --name or --name=value, a name of two characters or more.
      std::size_t end = 2;
      while (end < arg.size() && (alnum(arg[end]) || (end > 2 && (arg[end] == '-' || arg[end] == '_')))) ++end;
      const std::string name = arg.substr(2, end - 2);
      const cxxopts::HelpOptionDetails* o =
          name.size() < 2 || (end < arg.size() && arg[end] != '=')
              ? nullptr
              : find([&](const cxxopts::HelpOptionDetails& d) { return std::ranges::find(d.l, name) != d.l.end(); });
      if (o == nullptr) {
        const std::string option = arg.substr(0, arg.find('='));
        refuse_unknown(options, all, option.size() > 2 ? option : arg, arg);
      }
      if (o->has_implicit || end < arg.size()) continue;  // a flag, or its value after '='
      refuse_option_as_value(options, args, i, "--" + name, *o);
      ++i;
      continue;
    }
    if (looks_like_negative_number(arg)) continue;  // refused before, or a value
    // A long option's name after one dash ("-threads 2") would read as -t
    // with the value "hreads", and "2" be named an extra operand.
    const std::string long_name = arg.substr(1, arg.find('=') - 1);
    if (const cxxopts::HelpOptionDetails* o =
            long_name.size() < 2 ? nullptr : find([&](const cxxopts::HelpOptionDetails& d) {
              return std::ranges::find(d.l, long_name) != d.l.end();
            })) {
      // A flag's value would be refused next ("-json=1"): the flag alone.
      const bool flag_given_value = o->has_implicit && arg.find('=') != std::string::npos;
      throw usage_error("'" + shown_operand(arg) + "': a long option takes two dashes: write '--" +
                        (flag_given_value ? long_name + "' (it takes no value)" : shown_operand(arg.substr(1)) + "'"));
    }
    // -x, or -xyz: flags, the last of which may take a value, or a value
    // option followed by its value ("-t4").
    for (std::size_t k = 1; k < arg.size(); ++k) {
      const std::string letter(1, arg[k]);
      const cxxopts::HelpOptionDetails* o =
          alnum(arg[k]) ? find([&](const cxxopts::HelpOptionDetails& d) { return d.s == letter; }) : nullptr;
      if (o == nullptr) refuse_unknown(options, all, alnum(arg[k]) ? "-" + letter : arg, arg);
      if (o->has_implicit) continue;
      if (k + 1 < arg.size()) {  // the rest is its value: joined, letters and digits only (cxxopts' rule)
        const std::string rest = arg.substr(k + 1);
        // "-rt 1" would give --repeat the value "t" and leave "1" an extra
        // operand: a value made only of this command's short options was
        // meant as more options.
        const auto is_short_option = [&](char c) {
          return alnum(c) &&
                 find([&](const cxxopts::HelpOptionDetails& d) { return d.s == std::string(1, c); }) != nullptr;
        };
        if (std::ranges::all_of(rest, is_short_option)) {
          throw usage_error("'" + shown_operand(arg) + "': '-" + letter + "' takes a value, so '" + rest +
                            "' would be read as its value: write each option apart, with its value after it");
        }
        if (std::ranges::all_of(rest, alnum)) break;
        const bool equals = rest.front() == '=';
        const std::string value = equals ? rest.substr(1) : rest;
        throw usage_error("'" + shown_operand(arg) + "': " +
                          (equals ? "a short option takes its value without '='"
                                  : "a value joined to a short option takes letters and digits only") +
                          ": write '-" + letter + " " + shown_operand(value) + "'" +
                          (o->l.empty() ? "" : " or '--" + o->l.front() + "=" + shown_operand(value) + "'"));
      }
      refuse_option_as_value(options, args, i, "-" + letter, *o);
      ++i;
    }
  }
}

// cxxopts' own words, with straight quotes: what the checks above do not
// foresee still reads in one charset.
std::string plain_quotes(std::string text) {
  for (const std::string_view curly : {"\u2018", "\u2019"}) {
    for (std::size_t at = text.find(curly); at != std::string::npos; at = text.find(curly, at + 1)) {
      text.replace(at, curly.size(), "'");
    }
  }
  return text;
}

}  // namespace

cxxopts::ParseResult parse_command_line(cxxopts::Options& options, const std::vector<std::string>& args,
                                        bool board_size_positional, int largest_board_size) {
  const std::vector<cxxopts::HelpOptionDetails> all = every_option(options);
  refuse_flag_values(all, args);
  refuse_unknown_options(options, all, args);
  const std::vector<std::string> value_options = value_option_names(options);
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--") break;  // operands from here on: a file named -5 too
    if (!looks_like_negative_number(args[i])) continue;
    if (std::find(value_options.begin(), value_options.end(), args[i - 1]) != value_options.end()) continue;
    if (board_size_positional) {  // throws the range message
      parse_integer(args[i], "board size", min_board_size, largest_board_size);
    }
    throw usage_error("unexpected argument '" + shown_operand(args[i]) + "'");
  }
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    cxxopts::ParseResult result = options.parse(static_cast<int>(argv.size()), argv.data());
    refuse_repeats(all, result);
    return result;
  } catch (const cxxopts::exceptions::exception& e) {
    throw usage_error(plain_quotes(e.what()));
  }
}

std::string single_positional(const cxxopts::ParseResult& result, std::string_view name, std::string_view what) {
  if (result.count(std::string(name)) == 0) throw usage_error("missing " + std::string(what));
  const auto values = result[std::string(name)].as<std::vector<std::string>>();
  if (values.size() != 1) {
    // An option among the operands came after "--", where none is read
    // as one (`list -- --unique 4`): that is what to name, not the N.
    const auto option = std::ranges::find_if(values, [](const std::string& v) {
      return v.size() > 1 && v.front() == '-' && !std::isdigit(static_cast<unsigned char>(v[1]));
    });
    if (option != values.end()) {
      throw usage_error("expected one " + std::string(what) + ", got " + std::to_string(values.size()) + ": '" +
                        shown_operand(*option) + "' came after '--', where nothing is an option");
    }
    throw usage_error("expected one " + std::string(what) + ", got " + std::to_string(values.size()) + " ('" +
                      shown_operand(values[1]) + "' is extra)");
  }
  return values.front();
}

void add_board_size_operand(cxxopts::Options& options) {
  options.add_options("operands")("n", "Board size", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"n"});
}

int board_size_operand(const cxxopts::ParseResult& result) {
  return parse_board_size(single_positional(result, "n", "board size N (" + board_size_range() + ")"));
}

}  // namespace nqueens::cli
