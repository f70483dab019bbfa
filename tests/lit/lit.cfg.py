# lit configuration for fabc's FileCheck tests: one folder per stage and backend.
import os
import shutil
import lit.formats

config.name = "fabc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".fab", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.fabc_bin_dir), "..", "tests", "lit-out")

config.environment["PATH"] = os.pathsep.join(
    [config.fabc_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR", "LANG"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment.pop("FABC_PATH", None)

config.substitutions.append(("%fabc", os.path.join(config.fabc_bin_dir, "fabc")))
config.substitutions.append(("%src_root", config.fabc_src_root))
config.substitutions.append(("%stdlib", os.path.join(config.fabc_src_root, "stdlib")))
config.substitutions.append(("%examples", os.path.join(config.fabc_src_root, "examples")))
# Sanitized builds (FABC_SANITIZE) reserve terabytes of address space for their shadow
# memory: tests that cap it (ulimit -v, RLIMIT_AS) get 0, "no cap", there.
sanitized = getattr(config, "fabc_sanitize", "").upper() in ("ON", "1", "TRUE", "YES")
if sanitized:
    config.available_features.add("sanitizer")
config.substitutions.append(("%memlimit_mib", "0" if sanitized else "2048"))

# Real third-party programs that consume fabc's outputs: tests REQUIRE them, and lit
# reports such tests UNSUPPORTED (with the feature's name) where a program is absent.
for tool in ["dot", "vtysh", "opensm", "ibsim", "ibnetdiscover", "pre-commit", "chromium", "yanglint", "jq"]:
    if shutil.which(tool):
        config.available_features.add(tool)
if shutil.which("python3"):
    config.available_features.add("python3")
