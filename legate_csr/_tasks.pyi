LIBRARY_NAME: str
SPMV_TASK_ID: int
SPMV_TRANSPOSE_TASK_ID: int
DIAGONAL_TASK_ID: int

def register_library() -> None: ...
