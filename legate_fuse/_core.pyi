from collections.abc import Sequence
from enum import Enum

KERNEL_ABI_VERSION: int
MAX_DIM: int

class EncodingError(ValueError): ...

class Privilege(Enum):
    READ = 0
    WRITE = 1
    READ_WRITE = 2
    REDUCE = 3

class StoreDesc:
    store_id: int
    unbound: bool
    shape: list[int]
    transform: str
    dtype: str
    storage_id: int
    is_future: bool
    tree_id: int
    index_space: int
    field_id: int
    root_key: str
    view_key: str
    identity_key: str

def parse_store_desc(text: str) -> StoreDesc | None: ...
def dtype_size(dtype: str) -> int: ...

OperandTuple = tuple[int, int]

class KernelSpec:
    def __init__(
        self,
        args: Sequence[tuple[int, str, bool]],
        scalar_types: Sequence[str],
        nodes: Sequence[tuple[str, str, Sequence[OperandTuple]]],
        stores: Sequence[tuple[int, int]],
        reductions: Sequence[tuple[int, str, OperandTuple, OperandTuple]],
    ) -> None: ...
    @property
    def args(self) -> list[tuple[int, str, bool]]: ...
    scalar_types: list[str]
    @property
    def nodes(self) -> list[tuple[str, str, list[OperandTuple]]]: ...
    @property
    def stores(self) -> list[tuple[int, int]]: ...
    @property
    def reductions(self) -> list[tuple[int, str, OperandTuple, OperandTuple]]: ...
    def describe(self) -> str: ...
    def render_c(self) -> str: ...
    def render_cuda(self) -> str: ...

class FusedArg:
    store: int
    privilege: Privilege
    redop: int

class Group:
    kind: str
    tasks: list[int]
    dead_tasks: list[int]
    prologue: list[int]
    temporaries: list[int]
    args: list[FusedArg]
    arg_triples: list[tuple[int, int, int]]  # (store, privilege, redop) of each of `args`
    end_reason: str
    kernel_text: str
    kernel_number: int  # the text's number in this process (-1: no kernel)
    kernel: KernelSpec | None
    kernel_error: str

class Plan:
    groups: list[Group]  # shared by every window of the same signature
    cache_id: int
    group_bytes: list[int]  # per group: bytes not allocated, of this window's shapes
    def describe(self) -> str: ...

class TaskEncoding:
    """A window's tasks, decoded once per stream (ValueError when malformed)."""

    num_stores: int
    def __init__(self, encoded: list[int], num_stores: int) -> None: ...

class Analyzer:
    def __init__(self, capacity: int = 4096) -> None: ...
    def op_id(self, name: str) -> int: ...
    @property
    def op_names(self) -> list[str]: ...
    def analyze(
        self,
        descriptions: list[str],
        live_stores: list[int],
        tasks: TaskEncoding,
        use_cache: bool = True,
        prefix: int = -1,
        live_roots: set[str] | None = None,
    ) -> tuple[Plan, bool]: ...
    def choose_cut(
        self,
        descriptions: list[str],
        live_stores: list[int],
        tasks: TaskEncoding,
        earliest: int,
        live_roots: set[str] | None = None,
    ) -> int: ...
    @property
    def cached_plans(self) -> int: ...
    def clear(self) -> None: ...

class ArgRole(Enum):
    INPUT = 0
    OUTPUT = 1
    REDUCTION = 2

class OperandKind(Enum):
    ARG = 0
    REGISTER = 1
    SCALAR = 2

KERNEL_SYMBOL: str
C_RENDERER_VERSION: int

class UnsupportedError(ValueError): ...

def vector_math_check_program() -> str: ...
def c_supports(op: str, out_dtype: str, in_dtypes: list[str]) -> bool: ...
def c_supports_reduction(op: str, dtype: str) -> bool: ...

CUDA_RENDERER_VERSION: int
CUDA_BLOCK_SIZE: int

class NvrtcError(RuntimeError): ...

def nvrtc_compile_ptx(library: str, source: str, name: str, options: list[str]) -> str: ...
def nvrtc_version(library: str) -> str: ...
