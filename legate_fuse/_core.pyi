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
    bytes_not_allocated: int
    args: list[FusedArg]
    end_reason: str

class Plan:
    groups: list[Group]
    def describe(self) -> str: ...

class Analyzer:
    def __init__(self, capacity: int = 4096) -> None: ...
    def analyze(
        self,
        descriptions: list[str],
        live_descriptions: list[str],
        encoded_tasks: list[int],
        use_cache: bool = True,
    ) -> tuple[Plan, bool]: ...
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

OperandTuple = tuple[int, int]

def render_c(
    args: list[tuple[int, str, bool]],
    scalar_types: list[str],
    nodes: list[tuple[str, str, list[OperandTuple]]],
    stores: list[tuple[int, int]],
    reductions: list[tuple[int, str, OperandTuple, OperandTuple]],
) -> str: ...
def vector_math_check_program() -> str: ...
def c_supports(op: str, out_dtype: str, in_dtypes: list[str]) -> bool: ...
def c_supports_reduction(op: str, dtype: str) -> bool: ...

CUDA_RENDERER_VERSION: int
CUDA_BLOCK_SIZE: int

class NvrtcError(RuntimeError): ...

def render_cuda(
    args: list[tuple[int, str, bool]],
    scalar_types: list[str],
    nodes: list[tuple[str, str, list[OperandTuple]]],
    stores: list[tuple[int, int]],
    reductions: list[tuple[int, str, OperandTuple, OperandTuple]],
) -> str: ...
def nvrtc_compile_ptx(library: str, source: str, name: str, options: list[str]) -> str: ...
def nvrtc_version(library: str) -> str: ...
