"""Matrix-vector products in the analysis (lift/products.py, DESIGN.md's rule 7), on synthetic
windows: the product's result as cuPyNumeric promotes it, the matrix and the vector read whole."""

from __future__ import annotations

from legate_fuse import _core

from .window_builder import WindowBuilder, groups, region

ROWS, COLUMNS = 100, 8
Z = region(0)  # the product's result, as the program sees it
Y, P = region(3), region(4)
X = region(1, (ROWS, COLUMNS), space=6)


def promoted(root: int, dim: int, size: int, rows: int = ROWS, below: str = "",
             space: int = 5) -> str:
    """Store `root` of `rows` elements promoted along `dim` to `size` (Legate prints the last
    transform first)."""
    shape = (rows, size) if dim == 1 else (size, rows)
    transform = f"Promote(extra_dim: {dim}, dim_size: {size})" + (f" >> {below}" if below else "")
    return region(root, shape, transform=transform, space=space)


W_ROWS = promoted(2, 0, ROWS, rows=COLUMNS)  # the vector, promoted along the rows
Z_COLUMNS = promoted(0, 1, COLUMNS)  # the result, promoted along the columns


def product(w: WindowBuilder, result: str = Z_COLUMNS, matrix: str = X,
            vector: str = W_ROWS) -> int:
    return w.task((result, "W_WHOLE"), (matrix, "R_WHOLE"), (vector, "R_WHOLE"), op="MATVECMUL")


def test_a_product_and_the_work_on_its_result_are_one_group() -> None:
    w = WindowBuilder()
    product(w)
    w.task((P, "W"), (Z, "R"), (Y, "R"), op="BINARY_OP.SUBTRACT")  # p = X @ w - y
    w.keep_alive(X, Y, P)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1])]
    (group,) = plan.groups
    descs = w.descriptions
    # The product writes, and the kernel reads, its result without the promotion.
    assert [tuple(descs[s] for s in p) for p in group.products] == [(Z, X, W_ROWS)]
    roles = [(descs[a.store], a.privilege) for a in group.args]
    assert roles == [(Y, _core.Privilege.READ), (Z, _core.Privilege.WRITE_WHOLE),
                     (P, _core.Privilege.WRITE), (X, _core.Privilege.READ_WHOLE),
                     (W_ROWS, _core.Privilege.READ_WHOLE)]
    assert group.temporaries == []  # the product's result is memory the product writes
    # The kernel reads the product as an input array (the second), after y.
    assert "MATVECMUL" not in group.kernel_text


def test_the_result_is_the_store_without_its_last_promotion() -> None:
    view = "Shift(dim: 0, offset: -5)"
    sliced = region(0, space=21, transform=view)
    w = WindowBuilder()
    product(w, result=promoted(0, 1, COLUMNS, below=view, space=21))
    w.task((P, "W"), (sliced, "R"), op="UNARY_OP.EXP")
    w.keep_alive(P, X)
    assert groups(w.plan()) == [("fused", [0, 1])]


def test_a_product_whose_result_the_window_does_not_read_runs_as_built() -> None:
    w = WindowBuilder()
    product(w)
    w.task((P, "W"), (Y, "R"), op="UNARY_OP.EXP")
    w.keep_alive(Z, P)
    plan = w.plan()
    assert groups(plan) == [("opaque", [0]), ("single", [1])]
    assert plan.groups[0].end_reason == "its product is not read in the window"


def test_rule7_a_vector_the_group_computes_is_not_read_whole() -> None:
    square = region(1, (ROWS, ROWS), space=6)
    w = WindowBuilder()
    w.task((region(2), "W"), (Y, "R"), op="UNARY_OP.EXP")  # w2 = exp(y), of the result's shape
    product(w, matrix=square, vector=promoted(2, 0, ROWS))
    w.task((P, "W"), (Z, "R"), op="UNARY_OP.NEGATIVE")
    w.keep_alive(P, square)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("fused", [1, 2])]
    assert "whole, which the group accesses" in plan.groups[0].end_reason


def test_rule7_the_group_writes_no_root_a_product_reads_whole() -> None:
    w = WindowBuilder()
    product(w)
    w.task((P, "W"), (Z, "R"), op="UNARY_OP.EXP")
    w.task((region(2, (COLUMNS,)), "W"), (region(5, (COLUMNS,)), "R"), op="UNARY_OP.EXP")
    w.keep_alive(P, X, region(2, (COLUMNS,)))
    plan = w.plan()
    assert groups(plan)[0] == ("fused", [0, 1])
    assert "shape" in plan.groups[0].end_reason or "whole" in plan.groups[0].end_reason


def test_a_matrix_product_reads_its_result_without_the_inner_promotion() -> None:
    """cuPyNumeric's MATMUL over (rows, inner, columns): the result promoted along the inner
    dimension (1), the left factor along the columns, the right one along the rows."""
    inner = 6
    result = region(0, (ROWS, COLUMNS), space=8)
    left = region(1, (ROWS, inner), space=9)
    right = region(2, (inner, COLUMNS), space=10)
    out = region(4, (ROWS, COLUMNS), space=8)

    def along(store: str, dim: int, size: int, shape: tuple[int, int, int]) -> str:
        return store.replace(store[store.index("shape"):store.index("type")],
                             f"shape: [{', '.join(map(str, shape))}], transform: "
                             f"Promote(extra_dim: {dim}, dim_size: {size}), ")

    w = WindowBuilder()
    w.task((along(result, 1, inner, (ROWS, inner, COLUMNS)), "W_WHOLE"),
           (along(left, 2, COLUMNS, (ROWS, inner, COLUMNS)), "R_WHOLE"),
           (along(right, 0, ROWS, (ROWS, inner, COLUMNS)), "R_WHOLE"), op="MATMUL")
    w.task((out, "W"), (result, "R"), op="UNARY_OP.TANH")
    w.keep_alive(left, right, out)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1])]
    (group,) = plan.groups
    assert w.descriptions[group.products[0][0]] == result
    assert group.temporaries == [] and "MATMUL" not in group.kernel_text
