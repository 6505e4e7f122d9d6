"""The kinds a GPU kernel's time is summed under, by its name: profile_twin_step.py (the PyTorch
twin) and trace_kernels.py (the engine's Kineto trace) use the same, so their tables compare."""


def kind(name):
    lowered = name.lower()
    if any(k in lowered for k in ("conv", "cudnn", "gemm", "xmma", "sm80", "sm90", "wgrad", "dgrad", "implicit")):
        return "convolution / matmul"
    if "norm" in lowered or "welford" in lowered or "bn_" in lowered:
        return "batch norm"
    if "triton" in lowered:
        return "triton (fused)"
    return "other (elementwise, casts, resize, loss)"
