// The ports of one cage share one plug: the media pass's second step.
#include "diag/DiagCodes.h"
#include "diag/Diag.h"
#include "passes/Media.h"
#include "passes/Passes.h"

namespace fabc::passes::media {
using ir::None;

// The ports of one cage share one plug: a DAC and a transceiver cannot sit in the same
// twin-port cage, a twin-port transceiver is one model for both ports, and a twin-port
// copper assembly joins two whole cages. Links chosen per length are raised to what
// the cage's most demanding link needs, until every cage agrees. A raise changes the
// cage at the link's other end too, which a round over the devices in order reaches
// only in the next round when that device came first: along a chain of cages, one
// cage a round. So the rounds go on until one raises nothing, however many that takes
// (a cap of 14 left 5,000-switch fabrics with two transceivers in a cage). Requirements
// only rise (a link's media class, then at the cage's class its transceiver's reach),
// so this ends; each round is linear in ports.
namespace {
bool isAssembly(ir::Media m) { return m == ir::Media::DAC || m == ir::Media::ACC || m == ir::Media::AOC; }

// The first port of the cage that holds `port`.
uint32_t cageOf(const ir::Fabric &F, uint32_t port) {
  uint32_t idx = 0;
  uint32_t g = F.portGroup(port, &idx);
  return port - idx % F.layoutOf(F.portDevice[port]).groups[g].portsPerCage;
}
} // namespace

void harmonizeCages(ir::Fabric &F, DiagEngine &diags,
                    const std::function<const std::vector<Option> &(uint32_t)> &optionsOf) {
  unsigned reported = 0;
  auto endOptic = [&](uint32_t l, uint32_t port) { return F.linkA[l] == port ? F.linkOpticA[l] : F.linkOpticB[l]; };
  auto reachOf = [&](uint32_t optic) { return optic == None ? 0.0 : F.models[optic].reach.value; };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t d = 0; d < F.numDevices(); ++d)
      F.forEachCage(d, [&](uint32_t, const ir::GroupLayout &gl, uint32_t first) {
        if (gl.portsPerCage < 2)
          return;
        // The cage's requirement: the highest media class, and at that class the
        // transceiver (at this end) of longest reach.
        // Each port of the cage whose link has a plug, with that link.
        auto forEachLink = [&](auto &&fn) {
          for (uint32_t k = 0; k < gl.portsPerCage; ++k) {
            uint32_t port = first + k, l = F.portLink[port];
            if (l != None && F.linkMedia[l] != ir::Media::None)
              fn(port, l);
          }
        };
        ir::Media top = ir::Media::None;
        uint32_t topLink = None, topOptic = None;
        forEachLink([&](uint32_t port, uint32_t l) {
          uint32_t o = endOptic(l, port);
          if (F.linkMedia[l] > top || (F.linkMedia[l] == top && reachOf(o) > reachOf(topOptic))) {
            top = F.linkMedia[l];
            topLink = l;
            topOptic = o;
          }
        });
        if (top == ir::Media::None)
          return;
        // Whether the cage's links go to one cage at the far end matters to an assembly
        // only (and finding a port's cage is most of this step's cost).
        bool oneRemoteCage = true;
        if (isAssembly(top)) {
          uint32_t remoteCage = None;
          forEachLink([&](uint32_t port, uint32_t l) {
            uint32_t rc = cageOf(F, F.otherEnd(l, port));
            if (remoteCage != None && rc != remoteCage)
              oneRemoteCage = false;
            remoteCage = rc;
          });
        }
        bool splitAssembly = isAssembly(top) && !oneRemoteCage;
        ir::Media need = splitAssembly ? ir::Media::MMF : top; // a copper assembly cannot fan out
        forEachLink([&](uint32_t port, uint32_t l) {
          bool ok = F.linkMedia[l] == need && !(topOptic != None && F.linkMedia[l] == top && endOptic(l, port) != topOptic);
          if (ok && !splitAssembly)
            return;
          if (ok && splitAssembly && !isAssembly(F.linkMedia[l]))
            return;
          bool isA = F.linkA[l] == port;
          const Option *pick = nullptr;
          for (const Option &o : optionsOf(l)) {
            if (o.media < need || o.reach < F.linkLength[l] || (splitAssembly && isAssembly(o.media)))
              continue;
            if (o.media == top && topOptic != None && (isA ? o.opticA : o.opticB) != topOptic)
              continue;
            pick = &o;
            break;
          }
          if (!pick) {
            if (reported++ < 20) {
              Diagnostic *dg = diags.report(DiagCode::E0053, linkRange(F, l),
                                            "'{}' shares a cage with a {} link{}, but has no such media of its own",
                                            F.portName(port), ir::mediaName(need),
                                            topOptic != None && need == top
                                                ? " on " + std::string(F.strings.str(F.models[topOptic].name))
                                                : std::string());
              noteLinkInstances(dg, F, l);
              DiagEngine::note(dg, linkRange(F, topLink), "the cage's most demanding link is here");
              if (splitAssembly)
                DiagEngine::note(dg, {}, "a twin-port copper cable joins two whole cages; these ports go to different cages");
            } else {
              diags.tally(DiagCode::E0053, linkRange(F, l));
            }
            F.linkMedia[l] = ir::Media::None; // reported: no plug, no transceivers
            F.linkCable[l] = F.linkOpticA[l] = F.linkOpticB[l] = None;
            return;
          }
          if (pick->media == F.linkMedia[l] && pick->cable == F.linkCable[l] && pick->opticA == F.linkOpticA[l] &&
              pick->opticB == F.linkOpticB[l])
            return;
          F.linkMedia[l] = pick->media;
          F.linkCable[l] = pick->cable;
          F.linkOpticA[l] = pick->opticA;
          F.linkOpticB[l] = pick->opticB;
          changed = true;
        });
      });
  }
}

} // namespace fabc::passes::media
