"""The device's own math functions (libdevice, what NVRTC links into a kernel and what
cuPyNumeric's GPU kernels call) compiled for the host, so that the CUDA kernels run on the host
(cuda_on_host.py) compute with the GPU's algorithms rather than the host C library's.

libdevice is LLVM bitcode for the NVPTX target, shipped in NVIDIA's `nvidia-nvvm` wheel. Its
functions are plain LLVM IR over a few device instructions; they are built here for the host
with llvmlite (LLVM's own code generator):
- `__nvvm_reflect` queries are answered as NVRTC answers them for a kernel compiled without
  flush-to-zero and with IEEE square roots (`__CUDA_FTZ` 0, `__CUDA_PREC_SQRT` 1), for an sm_80
  device;
- the NVVM intrinsics (`llvm.nvvm.*`) and the few inline PTX instructions become calls of
  host functions of the same meaning (device_math_on_host.c; the multi-word integer PTX in IR
  below);
- only the functions a kernel may call, and what they call, are kept.

Every device instruction the kept functions use is specified exactly by PTX (rounding mode,
flushing) and is emulated exactly, except the approximate ones (`APPROXIMATE`): their hardware
results are not published, so the emulation computes the exact value rounded as PTX describes
the instruction's format. A function that reaches one (`approximate_instructions`) computes on
the host what a GPU computes in all but, possibly, rare last-bit cases.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from legate_fuse.backend import fast_math

STUBS = Path(__file__).with_name("device_math_on_host.c")
# The answers NVRTC gives `__nvvm_reflect` for a kernel built as legate_fuse builds them.
REFLECT = {"__CUDA_FTZ": 0, "__CUDA_PREC_SQRT": 1, "__CUDA_ARCH": 800}
APPROXIMATE = ("ex2.approx", "lg2.approx", "rcp.approx", "rsqrt.approx", "sqrt.approx",
               "sin.approx", "cos.approx", "tanh.approx", "div.approx")
# The C library functions the generated kernels call (their float32 variants end in `f`), with
# their number of arguments: the libdevice function of each is `__nv_<name>`. Those fast math
# may vectorise (fast_math.FUNCTIONS), and the exact ones besides.
FUNCTIONS = {**fast_math.FUNCTIONS,
             **{name: 1 for name in ("sqrt", "fabs", "floor", "ceil", "trunc", "rint", "round")},
             "copysign": 2, "fmod": 2, "fma": 3}

# Inline PTX of more than one instruction, by its first distinguishing words, as IR functions
# of the call's operands: each is exact integer arithmetic on 32- or 64-bit words.
_MULTIWORD = {
    # {lo, hi} = a * b + c, 32-bit words (mad.lo.cc / madc.hi)
    "mad.lo.cc.u32   $0, $2, $3, $4": ("{ i32, i32 }", "i32", 3, "i64", "a * b + c"),
    # 128-bit {lo, hi} = {a_lo, a_hi} + {b_lo, b_hi} (add.cc / addc)
    "add.cc.u32      r0, a0, b0": ("{ i64, i64 }", "i64", 4, "i128", "a + b"),
    "sub.cc.u32      r0, a0, b0": ("{ i64, i64 }", "i64", 4, "i128", "a - b"),
    # 128-bit {lo, hi} = a * b + c of 64-bit a, b, c
    "mad.lo.cc.u32   r0, alo, blo, clo": ("{ i64, i64 }", "i64", 3, "i128", "a * b + c"),
    # 128-bit {lo, hi} = a * b of 64-bit a, b
    "mul.lo.u32      r0, alo, blo": ("{ i64, i64 }", "i64", 2, "i128", "a * b"),
}


def multiword_function(name: str, pair: str, word: str, arity: int, wide: str,
                       formula: str) -> str:
    """The IR of one multi-word PTX sequence: operands widened, combined, split into words."""
    lines = [f"define internal {pair} @{name}("
             + ", ".join(f"{word} %w{i}" for i in range(arity)) + ") alwaysinline {"]
    bits = int(word[1:])
    if arity == 4:  # two 128-bit operands, each given as its low and high words
        for operand, (low, high) in (("a", (0, 1)), ("b", (2, 3))):
            lines += [f"  %{operand}l = zext {word} %w{low} to {wide}",
                      f"  %{operand}h0 = zext {word} %w{high} to {wide}",
                      f"  %{operand}h = shl {wide} %{operand}h0, {bits}",
                      f"  %{operand} = or {wide} %{operand}l, %{operand}h"]
    else:
        lines += [f"  %{'abc'[i]} = zext {word} %w{i} to {wide}" for i in range(arity)]
    if formula == "a * b + c":
        lines += [f"  %p = mul {wide} %a, %b", f"  %r = add {wide} %p, %c"]
    else:
        op = {"a + b": "add", "a - b": "sub", "a * b": "mul"}[formula]
        lines += [f"  %r = {op} {wide} %a, %b"]
    lines += [f"  %lo = trunc {wide} %r to {word}", f"  %r1 = lshr {wide} %r, {bits}",
              f"  %hi = trunc {wide} %r1 to {word}",
              f"  %s0 = insertvalue {pair} undef, {word} %lo, 0",
              f"  %s1 = insertvalue {pair} %s0, {word} %hi, 1", f"  ret {pair} %s1", "}"]
    return "\n".join(lines)


def defined_name(function: str) -> str:
    """The name an IR function definition defines."""
    found = re.search(r"@([\w.]+)\(", function)
    assert found, function
    return found.group(1)


def find_libdevice() -> Path | None:
    """libdevice's bitcode from the `nvidia-nvvm` wheel, if installed."""
    try:
        import nvidia
    except ImportError:
        return None
    for root in nvidia.__path__:
        for found in sorted(Path(root).glob("cu*/nvvm/libdevice/libdevice.*.bc")):
            return found
    return None


def kernel_functions() -> list[str]:
    """The libdevice names of every function a kernel may call, float64 and float32."""
    return [f"__nv_{name}{suffix}" for name in FUNCTIONS for suffix in ("", "f")]


class HostLibdevice:
    """libdevice's IR, with its reflect queries answered and its inline PTX replaced."""

    def __init__(self, bitcode: Path) -> None:
        import llvmlite.binding as llvm

        self.ir = self._rewritten(str(llvm.parse_bitcode(bitcode.read_bytes())))
        self.definitions = {m.group(1): m.group(0) for m in re.finditer(
            r"^define [^\n]*?@([\w.]+)\((?:.|\n)*?^}\n", self.ir, re.M)}

    @staticmethod
    def _rewritten(ir: str) -> str:
        strings = dict(re.findall(r'^(@\.str[\w.]*) = [^\n]*c"(\w+)\\00"', ir, re.M))
        ir = re.sub(r"(%[\w.]+) = call i32 @__nvvm_reflect\(ptr (@\.str[\w.]*)\)[^\n]*",
                    lambda m: f"{m.group(1)} = add i32 0, {REFLECT[strings[m.group(2)]]}", ir)

        def replace_asm(match: re.Match[str]) -> str:
            result_type, text = match.group(1), match.group(2)
            single = re.fullmatch(r"([a-z0-9.]+) \$0, ?\$1(?:, \$2)?;", text)
            if single:  # one instruction: a host function of the same name (stubs)
                return f"call {result_type} @lf_ptx_{single.group(1)}"
            for words, (_, _, arity, _, _) in _MULTIWORD.items():
                if words in text:
                    return (f"call {result_type} "
                            f"@lf_ptx_multiword_{list(_MULTIWORD).index(words)}_{arity}")
            if "setp.equ.f64" in text and "selp.f64" in text:
                return f"call {result_type} @lf_ptx_select_if_equal_or_unordered"
            raise NotImplementedError(f"inline PTX not emulated: {text!r}")

        ir = re.sub(r'call ([^@\n]*?) asm (?:sideeffect )?"((?:[^"\\]|\\.)*)", "[^"]*"',
                    replace_asm, ir)
        ir = re.sub(r", !srcloc ![0-9]+", "", ir)
        return re.sub(r"@llvm\.nvvm\.([\w.]+)", r"@lf_nvvm_\1", ir)

    def closure(self, wanted: list[str]) -> set[str]:
        """The functions `wanted` call, directly or not, with them."""
        kept: set[str] = set()
        todo = list(wanted)
        while todo:
            name = todo.pop()
            if name not in kept:
                kept.add(name)
                todo += [callee for callee in re.findall(r"@([\w.]+)\(", self.definitions[name])
                         if callee in self.definitions]
        return kept

    def module_text(self, wanted: list[str], triple: str, layout: str) -> str:
        kept = self.closure(wanted)
        bodies = [text if name in wanted else re.sub(r"^define (internal )?", "define internal ",
                                                     text)
                  for name, text in sorted(self.definitions.items()) if name in kept]
        multiword = [multiword_function(f"lf_ptx_multiword_{i}_{spec[2]}", *spec)
                     for i, spec in enumerate(_MULTIWORD.values())]
        wanted_calls = set(re.findall(r"call [^@\n]*@(lf_ptx_[\w.]+)\(", "\n".join(bodies)))
        multiword = [text for text in multiword if defined_name(text) in wanted_calls]
        declarations = [line for line in re.findall(r"^declare [^\n]*", self.ir, re.M)
                        if "__nvvm_reflect" not in line]
        stubs = sorted(wanted_calls - {defined_name(text) for text in multiword})
        declarations += [self._declaration(stub, "\n".join(bodies)) for stub in stubs]
        return "\n".join([f'target datalayout = "{layout}"', f'target triple = "{triple}"',
                          *re.findall(r"^%[^\n]*", self.ir, re.M),
                          *re.findall(r"^@[^\n]*", self.ir, re.M), *bodies, *multiword,
                          *declarations, *re.findall(r"^attributes [^\n]*", self.ir, re.M),
                          *re.findall(r"^![0-9]+ = [^\n]*", self.ir, re.M)])

    @staticmethod
    def _declaration(stub: str, bodies: str) -> str:
        """`declare` for a replaced inline PTX instruction, from one of its calls."""
        call = re.search(rf"call ([^@\n]*?) @{re.escape(stub)}\(([^\n]*)\)", bodies)
        assert call, stub
        types = [operand.split()[0] for operand in re.split(r",\s*(?![^()]*\))", call.group(2))]
        return f"declare {call.group(1)} @{stub}({', '.join(types)})"


@dataclass(frozen=True)
class DeviceMath:
    """libdevice's kernel functions built for the host: the shared library, and the IR it was
    built from after optimisation (each kernel function with what it inlines)."""

    library: Path
    ir: str

    def approximate_instructions(self, function: str) -> set[str]:
        """The approximate device instructions `function` executes (on some inputs)."""
        definitions = {m.group(1): m.group(0) for m in re.finditer(
            r"^define [^\n]*?@([\w.]+)\((?:.|\n)*?^}\n", self.ir, re.M)}
        used: set[str] = set()
        todo, seen = [function], set()
        while todo:
            name = todo.pop()
            if name in seen or name not in definitions:
                continue
            seen.add(name)
            used |= set(re.findall(r"@lf_(?:nvvm|ptx)_([\w.]+)\(", definitions[name]))
            todo += re.findall(r"@([\w.]+)\(", definitions[name])
        return {name for name in used if name.startswith(APPROXIMATE)}


@cache
def build(bitcode: Path, folder: Path) -> DeviceMath:
    """libdevice's kernel functions built for the host as a shared library in `folder`."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(opt=2, reloc="pic")
    library = HostLibdevice(bitcode)
    module = llvm.parse_assembly(library.module_text(kernel_functions(),
                                                     llvm.get_default_triple(),
                                                     str(machine.target_data)))
    module.verify()
    options = llvm.create_pipeline_tuning_options(speed_level=2)
    builder = llvm.create_pass_builder(machine, options)
    builder.getModulePassManager().run(module, builder)
    folder.mkdir(parents=True, exist_ok=True)
    obj = folder / "libdevice.o"
    obj.write_bytes(machine.emit_object(module))
    output = folder / "libdevice_host.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-frounding-math", "-ffp-contract=off",
                    "-fno-fast-math", "-o", str(output), str(obj), str(STUBS), "-lm"],
                   check=True, capture_output=True, text=True)
    return DeviceMath(output, str(module))
