LIBRARY_NAME: str
FUSED_TASK_ID: int

def register_library() -> None: ...
