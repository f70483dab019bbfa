// The measurement behind "One JSON writer" (docs/decisions/0021-one-json-writer.md): a cabling plan's
// records (read back from a build's cabling/plan.csv) written as JSON into memory four
// ways: fabc's JsonWriter, the format strings it replaced, llvm::json::OStream indented
// and compact. Not built by default:
//   ninja -C build json_writer_bench && build/bench/json/json_writer_bench OUT/cabling/plan.csv
#include "support/Json.h"
#include <chrono>
#include <fstream>
#include <iostream>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>
#include <sstream>
#include <vector>
using namespace fabc;
struct Row {
  std::string devA, portA, devB, portB, media, src, sku, xa, xb;
  double speed, len, order;
  uint64_t id;
};
static std::string jsonString(std::string_view s) {
  TextBuffer b;
  appendJsonEscaped(b, s);
  return "\"" + std::string(b.data(), b.size()) + "\"";
}
int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: json_writer_bench PLAN.csv\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line;
  std::getline(in, line);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string x;
    while (std::getline(ss, x, ','))
      f.push_back(x);
    while (f.size() < 17)
      f.push_back("");
    Row r{f[1],
          f[2],
          f[5],
          f[6],
          f[10],
          f[12],
          f[14],
          f[15],
          f[16],
          std::stod(f[9]),
          std::stod(f[11]),
          std::stod(f[13]),
          std::stoull(f[0])};
    rows.push_back(std::move(r));
  }
  auto time = [&](const char *name, auto fn) {
    double best = 1e9;
    size_t bytes = 0;
    for (int k = 0; k < 5; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      bytes = fn();
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::min(best, s);
    }
    std::cout << name << ": " << best * 1000 << " ms, " << bytes / 1e6 << " MB, " << rows.size() << " records\n";
  };
  time("JsonWriter (fabc layout)", [&] {
    size_t total = 0;
    JsonWriter j([&](std::string_view s) { total += s.size(); });
    j.beginObject();
    j.key("fabric").string("gb200_bench");
    j.key("generator").string("fabc 0.1.0");
    j.key("cables").beginArray();
    for (const Row &r : rows) {
      j.beginObject(JsonLayout::Inline);
      j.key("cable").integer(r.id);
      j.key("a").beginObject(JsonLayout::Inline);
      j.key("device").string(r.devA);
      j.key("port").string(r.portA);
      j.endObject();
      j.key("b").beginObject(JsonLayout::Inline);
      j.key("device").string(r.devB);
      j.key("port").string(r.portB);
      j.endObject();
      j.key("speed_gbps").general(r.speed);
      j.key("media").string(r.media);
      j.key("length_m").fixed(r.len, 2);
      j.key("length_source").string(r.src);
      j.key("order_length_m").general(r.order);
      j.key("cable_sku").string(r.sku);
      j.key("a_transceiver").stringOrNull(r.xa);
      j.key("b_transceiver").stringOrNull(r.xb);
      j.endObject();
    }
    j.endArray();
    j.endObject();
    j.flush();
    return total;
  });
  time("fmt format strings + jsonString (before)", [&] {
    size_t total = 0;
    TextBuffer b;
    fmt::format_to(fmt::appender(b), "{{\n  \"fabric\": {},\n  \"generator\": \"fabc {}\",\n  \"cables\": [",
                   jsonString("gb200_bench"), "0.1.0");
    size_t l = 0;
    for (const Row &r : rows) {
      fmt::format_to(
          fmt::appender(b),
          "{}\n    {{\"cable\": {}, \"a\": {{\"device\": {}, \"port\": {}}}, \"b\": {{\"device\": {}, \"port\": {}}}, "
          "\"speed_gbps\": {:g}, \"media\": \"{}\", \"length_m\": {:.2f}, \"length_source\": \"{}\", "
          "\"order_length_m\": {:g}, \"cable_sku\": {}, \"a_transceiver\": {}, \"b_transceiver\": {}}}",
          l++ ? "," : "", r.id, jsonString(r.devA), jsonString(r.portA), jsonString(r.devB), jsonString(r.portB),
          r.speed, r.media, r.len, r.src, r.order, jsonString(r.sku), r.xa.empty() ? "null" : jsonString(r.xa),
          r.xb.empty() ? "null" : jsonString(r.xb));
      if (b.size() > 65536) {
        total += b.size();
        b.clear();
      }
    }
    fmt::format_to(fmt::appender(b), "\n  ]\n}}\n");
    total += b.size();
    return total;
  });
  for (unsigned indent : {2u, 0u}) {
    std::string name = "llvm::json::OStream indent " + std::to_string(indent);
    time(name.c_str(), [&] {
      struct Counting : llvm::raw_ostream {
        size_t n = 0;
        void write_impl(const char *, size_t s) override { n += s; }
        uint64_t current_pos() const override { return n; }
      } os;
      os.SetBufferSize(65536);
      llvm::json::OStream j(os, indent);
      j.objectBegin();
      j.attribute("fabric", "gb200_bench");
      j.attribute("generator", "fabc 0.1.0");
      j.attributeBegin("cables");
      j.arrayBegin();
      for (const Row &r : rows) {
        j.objectBegin();
        j.attribute("cable", int64_t(r.id));
        j.attributeObject("a", [&] {
          j.attribute("device", r.devA);
          j.attribute("port", r.portA);
        });
        j.attributeObject("b", [&] {
          j.attribute("device", r.devB);
          j.attribute("port", r.portB);
        });
        j.attribute("speed_gbps", r.speed);
        j.attribute("media", r.media);
        // {:.2f} has no OStream spelling: value(double) writes %.17g; rawValue keeps the text.
        j.attributeBegin("length_m");
        j.rawValue([&](llvm::raw_ostream &o) { o << llvm::format("%.2f", r.len); });
        j.attributeEnd();
        j.attribute("length_source", r.src);
        j.attribute("order_length_m", r.order);
        j.attribute("cable_sku", r.sku);
        if (r.xa.empty())
          j.attribute("a_transceiver", nullptr);
        else
          j.attribute("a_transceiver", r.xa);
        if (r.xb.empty())
          j.attribute("b_transceiver", nullptr);
        else
          j.attribute("b_transceiver", r.xb);
        j.objectEnd();
      }
      j.arrayEnd();
      j.attributeEnd();
      j.objectEnd();
      os.flush();
      return os.n;
    });
  }
}
