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
# The TACACS+ and BGP keys sonic/Inputs/sn5600-platform.fab names by reference (tacacs_secret =
# "env:FABC_TEST_TACACS_KEY"): a secret is never in a design, so the build reads it here.
config.environment["FABC_TEST_TACACS_KEY"] = "lit-tacacs-key"
config.environment["FABC_TEST_BGP_KEY"] = "lit-bgp-key"
# examples/spectrum-x names its TACACS+ key the same way.
config.environment["SPECTRUM_X_TACACS_KEY"] = "lit-spectrum-x-key"

config.substitutions.append(("%fabc", os.path.join(config.fabc_bin_dir, "fabc")))
config.substitutions.append(("%src_root", config.fabc_src_root))
config.substitutions.append(("%stdlib", os.path.join(config.fabc_src_root, "stdlib")))
config.substitutions.append(("%examples", os.path.join(config.fabc_src_root, "examples")))
# Sanitized builds (FABC_SANITIZE) reserve terabytes of address space for their shadow
# memory: tests that cap it (ulimit -v, RLIMIT_AS) get 0, "no cap", there.
sanitized = getattr(config, "fabc_sanitize", "").upper() in ("ON", "1", "TRUE", "YES")
if sanitized:
    config.available_features.add("sanitizer")
    # A sanitizer report aborts: an exit status of 1 (ASan's default) would pass for
    # fabc's "errors in the design" under `not`. Leaks are errors.
    config.environment["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "abort_on_error=1:detect_leaks=1")
    # Third-party leaks only, each with its cause (tests/lsan-suppressions.txt).
    config.environment["LSAN_OPTIONS"] = os.environ.get(
        "LSAN_OPTIONS", "suppressions=%s:print_suppressions=0" % os.path.join(config.fabc_src_root, "tests",
                                                                            "lsan-suppressions.txt"))
    config.environment["UBSAN_OPTIONS"] = os.environ.get("UBSAN_OPTIONS",
                                                         "abort_on_error=1:halt_on_error=1:print_stacktrace=1")
config.substitutions.append(("%memlimit_mib", "0" if sanitized else "2048"))
# The whole-repository differential tests take every 4th input under sanitizers
# (tests/lit/Inputs/sample.py): all of them cost ASan most of CI's time.
config.environment["FABC_TEST_SAMPLE"] = os.environ.get("FABC_TEST_SAMPLE", "4" if sanitized else "1")

# Real third-party programs that consume fabc's outputs: tests REQUIRE them, and lit
# reports such tests UNSUPPORTED (with the feature's name) where a program is absent.
for tool in ["dot", "vtysh", "opensm", "ibsim", "ibnetdiscover", "pre-commit", "chromium", "yanglint", "jq", "lldpd",
             "netplan", "ping", "nvim", "shellcheck"]:
    if shutil.which(tool):
        config.available_features.add(tool)
if shutil.which("python3"):
    config.available_features.add("python3")
# The command line's own tests: script (util-linux) runs fabc on a pseudo-terminal (colour);
# man and groff render the generated man page; bash and zsh load the completions; cpack,
# dpkg-deb and dpkg-shlibdeps build the Debian package; node and npm build the VS Code extension.
for tool in ["script", "man", "groff", "bash", "zsh", "cpack", "dpkg-deb", "dpkg-shlibdeps", "node", "npm", "lintian"]:
    if shutil.which(tool):
        config.available_features.add(tool)
# bash-completion's loader, which finds an installed completion as a user's bash does.
if os.access("/usr/share/bash-completion/bash_completion", os.R_OK):
    config.available_features.add("bash-completion")
# The SARIF Multitool (scripts/setup-debian.sh installs it) applies GitHub code scanning's rules.
_multitool = os.environ.get("FABC_SARIF_MULTITOOL",
                            "/opt/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool")
if os.access(_multitool, os.X_OK):
    config.available_features.add("sarif-multitool")
    config.substitutions.append(("%sarif_multitool", _multitool))
# The VS Code extension's locked npm tree (editors/vscode/package-lock.json) needs Node.js 20.18.
import subprocess
try:
    _node = subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=10).stdout.strip()
    if tuple(int(x) for x in _node.lstrip("v").split(".")[:2]) >= (20, 18):
        config.available_features.add("node20")
except (OSError, ValueError, subprocess.TimeoutExpired):
    pass
config.substitutions.append(("%build_root", os.path.dirname(os.path.dirname(config.fabc_bin_dir))))

# The IBDM library's shell (ibutils) parses InfiniBand topology files; slurmctld reads
# topology.conf.
for tool in ["ibdmsh", "slurmctld", "scontrol"]:
    if shutil.which(tool):
        config.available_features.add(tool)
# ibsim and slurmctld tests run in private network (their sockets are per namespace) and
# mount namespaces: `unshare -nm` needs CAP_SYS_ADMIN.
import subprocess
try:
    if subprocess.run(["unshare", "-n", "-m", "true"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                      timeout=10).returncode == 0:
        config.available_features.add("netns")
except (OSError, subprocess.TimeoutExpired):
    pass

# A small tmpfs in a private mount namespace stands for a full disk (output/full-disk.test).
try:
    if subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10).returncode == 0:
        config.available_features.add("tmpfs")
except (OSError, subprocess.TimeoutExpired):
    pass

# Network namespaces (FRR fabrics brought up in them): root, and a kernel that allows them.
def _netns_works():
    import subprocess
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("ip"):
        return False
    probe = "fabc-lit-probe-%d" % os.getpid()
    ok = subprocess.call(["ip", "netns", "add", probe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0
    if ok:
        subprocess.call(["ip", "netns", "del", probe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return ok
if _netns_works():
    config.available_features.add("netns")

# The system Python, which has Debian's python3-* modules (a pyenv python3 earlier on
# PATH may not), as %sys_python3; features for the modules validators use.
_sys_python3 = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else shutil.which("python3")
if _sys_python3:
    import subprocess
    config.substitutions.append(("%sys_python3", _sys_python3))
    for _module, _feature in (("jsonschema", "python3-jsonschema"), ("yaml", "python3-yaml")):
        if subprocess.call([_sys_python3, "-c", "import " + _module], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL) == 0:
            config.available_features.add(_feature)

# A PID namespace (unshare -rpf) makes a command PID 1, as in a container.
import subprocess as _sp
if shutil.which("unshare") and _sp.call(["unshare", "-rpf", "true"], stdout=_sp.DEVNULL, stderr=_sp.DEVNULL) == 0:
    config.available_features.add("pidns")
