#pragma once
// ANTLR's two-stage parse, for the parser and the formatter (inside compiler/ast/ only):
// SLL with bail-out first, fast on valid input; full LL with error recovery only if SLL
// fails.
#include "FabricParser.h"
#include "antlr4-runtime.h"

namespace fabc {

inline fabc_antlr::FabricParser::FileContext *parseTwoStage(fabc_antlr::FabricParser &parser,
                                                            antlr4::CommonTokenStream &tokens) {
  auto *sim = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  sim->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    return parser.file();
  } catch (antlr4::ParseCancellationException &) {
  }
  tokens.seek(0);
  parser.reset();
  parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
  sim->setPredictionMode(antlr4::atn::PredictionMode::LL);
  try {
    return parser.file();
  } catch (antlr4::ParseCancellationException &) {
    return nullptr; // an error listener stopped a hopeless recovery; its errors are reported
  }
}

} // namespace fabc
