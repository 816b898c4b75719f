#include "cli/report.hpp"

#include <iostream>

namespace nqueens::cli {

void write_report(const report& r, output_format format) {
  if (format == output_format::json) {
    std::cout << r.json().str() << '\n';
  } else {
    r.write_text(std::cout);
  }
}

}  // namespace nqueens::cli
