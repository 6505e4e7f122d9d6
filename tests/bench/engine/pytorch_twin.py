#!/usr/bin/env python3
"""PyTorch twin of `segstudio-train train` with its defaults, for the side-by-side GPU benchmark
(issue 48 item 4; tests/bench/engine/gpu_side_by_side.sh runs both on one GPU).

The model is the engine's default, `deeplabv3plus-resnet18-256-s16` (core/engine/models/ModelRegistry.cpp:
DeepLabV3+ on a ResNet-18 encoder with a deep 3x3 stem, a 256-channel last stage, output stride 32,
pyramid rates 2 and 4, a stride-16 second skip of 64 channels), layer for layer: the same
convolutions (kernel, stride, dilation, groups, bias), batch norms, ReLUs, concatenations,
bilinear resizes (align_corners=False) and initialisation (He normal, fan-out, for every conv; each
residual branch's last batch norm at zero; head biases zero). Its parameter count is asserted
against the number derived from the C++ code (expected_parameters below).

The recipe is TrainConfig's defaults (core/engine/training/TrainConfig.h): AdamW lr 5e-3, betas 0.9/0.999,
eps 1e-8, decoupled weight decay 0.1 on every parameter (one group, as the engine's optimiser),
batch 8, linear warm-up over a tenth of the run (at most 100 steps) then cosine to 0
(core/engine/training/LrSchedule.cpp), class weights the square root of median-frequency weights from the
pack header's class statistics (core/pack/ClassWeights.cpp), cross-entropy ignoring 255 as
`sum w[y] nll / sum w[y]` in fp32 (SegmentationLoss.cpp), x-reflection and +-10 px translation
(padding black / 255) then a random crop (Augmenter.cpp, flip then shift then window), ImageNet
normalisation of 0..255 pixels (Runtime.cpp), bf16 autocast around the forward pass only,
channels-last parameters and inputs, cuDNN's algorithm search off. Class-uniform crops,
colour jitter, scale, EMA and hard-pixel loss are off by default in the engine and not here.

Written as a careful PyTorch user writes it: both packs uploaded once to the GPU as uint8, the
epoch order a device-side randperm, augmentation as a handful of batched gathers on the GPU (uint8,
before the float conversion), fused AdamW (or SGD with foreach), no host synchronisation per step
(the loss is summed on the device and read at log intervals), optional torch.compile (--compile)
and CUDA graphs (--cuda-graphs: torch.compile mode="reduce-overhead").

Time budget (--time-budget S): planned as the engine plans it (TimeBudgetPlanner /
BudgetController): the first step is not timed, the pace of the next three makes the first plan
(the most steps that fit in what is left), then it re-plans every log interval (more often near the
end) at the slower of the latest window's pace and a moving average, and the cosine is re-laid
over each new plan keeping the progress reached (LrSchedule::replan), so the rate ends at 0 at the
budget. The host synchronises only at those planning points. Unlike the engine, the budget here is
training time only: the one validation comes after it (the engine reserves its final validation,
0.1 s a pass on an H100 by docs/SCALING.md, inside the budget). With --compile / --cuda-graphs, compilation and
graph capture happen in warm-up steps before the clock starts; the weights, batch-norm statistics,
optimiser and data stream are then put back to their initial state, and the compile time is
reported apart (compile_s).

At the end it validates once on the val pack (whole images, the training batch size, bf16, eval
mode) exactly as the engine's validation scores: the class-prior correction (-0.5 ln w_c added to
the logits, ClassPriorCorrection.cpp) before the argmax, a confusion matrix over labelled pixels
(label < classes), IoU = hits / (truth + predicted - hits) for every class whose union is not
empty, mean IoU the mean of those (core/metrics/SegmentationMetrics.cpp).

Prints progress on stderr and one JSON line on stdout. Pack files are read directly
(core/pack/PackFormat.h), so the engine and the twin train on the same bytes.

    python3 tests/bench/engine/pytorch_twin.py --train-pack train.pack --val-pack val.pack \\
        --time-budget 120 --crop-height 180 --crop-width 240 --batch 8 [--cuda-graphs]
    python3 tests/bench/engine/pytorch_twin.py --describe --crop-height 180 --crop-width 240  # no torch needed
"""
import argparse
import json
import math
import struct
import sys
import time

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:  # --describe works without torch
    torch = nn = F = None

MODEL_NAME = "deeplabv3plus-resnet18-256-s16"
UNLABELLED = 255
NO_END = (2 ** 63 - 1) // 4  # BudgetController::kNoEnd: no plan yet

# Parameters of the default model, derived by hand from the C++ constructors (ResNetEncoder.cpp,
# AtrousSpatialPyramid.cpp, DeepLabV3Plus.cpp; convolutions without bias unless said, each batch
# norm 2 x channels of weight and bias; buffers are not parameters):
#   stem: 3x3 3->32 (864) + BN (64); 3x3 32->32 (9216) + BN (64); 3x3/2 32->64 (18432) + BN (128) = 28,768
#   stage 1, two blocks 64->64 (no shortcut): 2 x 2 x (36,864 + 128)                          = 147,968
#   stage 2: 3x3/2 64->128 (73,728) + 3x3 128->128 (147,456) + 1x1/2 shortcut (8,192) + 3 BN (768)
#            + a block 128->128: 2 x (147,456 + 256)                                             = 525,568
#   stage 3: 294,912 + 589,824 + 32,768 + 3 x 512, + 2 x (589,824 + 512)                        = 2,099,712
#   stage 4 (256 channels, stride 32): 3x3/2 256->256 (589,824) + 3x3 (589,824) + 1x1/2 shortcut
#            (65,536) + 3 BN (1,536), + 2 x (589,824 + 512)                                     = 2,427,392
#   encoder                                                                                     = 5,229,408
#   pyramid (256 in, 128 channels, rates 2 and 4): 1x1 (32,768 + 256); per rate a depthwise 3x3
#            (2,304 + BN 512) and a 1x1 (32,768 + 256) = 35,840 twice; pooling 1x1 with bias
#            (32,768 + 128, no BN); fuse 1x1 512->128 (65,536 + 256)                            = 203,392
#   skip 1x1 64->32 + BN                                                                        = 2,112
#   middle skip 1x1 256->64 + BN                                                                = 16,512
#   middle fuse: depthwise 3x3 on 192 (1,728 + 384) + 1x1 192->128 (24,576 + 256)               = 26,944
#   refine: depthwise 160 (1,440 + 320) + 1x1 160->96 (15,360 + 192); depthwise 96 (864 + 192)
#            + 1x1 96->96 (9,216 + 192)                                                         = 27,776
#   classifier 1x1 96->C with bias                                                              = 97 C
# Total 5,506,144 + 97 C: 5,507,211 for CamVid's 11 classes (the registry's "5.5 M"). conv_specs()
# below recounts it from a layer list, and the 11.82 GFLOPs the registry gives at 360x480 are
# recomputed from the same list with ConvLayout's rule.
PARAMETERS_WITHOUT_CLASSIFIER = 5_506_144
REGISTRY_GFLOPS_360x480 = 11.82


def expected_parameters(classes):
    return PARAMETERS_WITHOUT_CLASSIFIER + 97 * classes


# --------------------------------------------------------------------------------------------
# The model as a list, without torch: FLOPs (ConvLayout::flops) and the parameter count.

def conv_specs(classes, last_stage=256, output_stride=32, rates=(2, 4), pyramid=128, skip=32, middle=64,
               decoder=96):
    """Every convolution in the order ConvLayout records it: (in, out, kernel, groups, output
    stride, bias, batch norm after it, recorded in ConvLayout). The pyramid's pooled branch is not
    recorded there (its FLOPs on a 1x1 map are left out of the engine's counts)."""
    specs = []

    def conv(cin, cout, kernel, stride_of_output, groups=1, bias=False, norm=True, recorded=True):
        specs.append((cin, cout, kernel, groups, stride_of_output, bias, norm, recorded))

    conv(3, 32, 3, 2)
    conv(32, 32, 3, 2)
    conv(32, 64, 3, 4)
    channels, stride_now = 64, 4
    for s, width in enumerate((64, 128, 256, last_stage)):
        for block in range(2):
            stride = 2 if block == 0 and s > 0 else 1
            if stride == 2 and stride_now == output_stride:
                stride = 1
            stride_now *= stride
            conv(channels, width, 3, stride_now)
            conv(width, width, 3, stride_now)
            if stride != 1 or channels != width:
                conv(channels, width, 1, stride_now)
            channels = width
    conv(last_stage, pyramid, 1, output_stride)
    for _ in rates:
        conv(last_stage, last_stage, 3, output_stride, groups=last_stage)
        conv(last_stage, pyramid, 1, output_stride)
    conv(last_stage, pyramid, 1, output_stride, bias=True, norm=False, recorded=False)  # pooled branch
    conv((len(rates) + 2) * pyramid, pyramid, 1, output_stride)
    conv(64, skip, 1, 4)
    if middle:
        conv(256, middle, 1, 16)
        conv(pyramid + middle, pyramid + middle, 3, 16, groups=pyramid + middle)
        conv(pyramid + middle, pyramid, 1, 16)
    conv(pyramid + skip, pyramid + skip, 3, 4, groups=pyramid + skip)
    conv(pyramid + skip, decoder, 1, 4)
    conv(decoder, decoder, 3, 4, groups=decoder)
    conv(decoder, decoder, 1, 4)
    conv(decoder, classes, 1, 4, bias=True, norm=False)
    return specs


def spec_parameters(specs):
    return sum(cout * (cin // groups) * kernel * kernel + (cout if bias else 0) + (2 * cout if norm else 0)
               for cin, cout, kernel, groups, _, bias, norm, _ in specs)


def forward_flops(specs, height, width):
    """ConvLayout::flops: 2 x multiply-adds of the recorded convolutions, output sizes rounded up."""
    total = 0
    for cin, cout, kernel, groups, stride, _, _, recorded in specs:
        if recorded:
            pixels = ((height + stride - 1) // stride) * ((width + stride - 1) // stride)
            total += 2 * cout * (cin // groups) * kernel * kernel * pixels
    return float(total)


def peak_bf16_tflops(gpu_name):
    """Dense bf16 peak by the datasheets (docs/SCALING.md uses 989 for the H100 SXM and the H200)."""
    name = gpu_name.upper()
    if "H100" in name and "PCIE" in name:
        return 756.0
    if "H100" in name and "NVL" in name:
        return 835.0
    if "H100" in name or "H200" in name:
        return 989.0
    if "A100" in name:
        return 312.0
    return None


# --------------------------------------------------------------------------------------------
# Packs (core/pack/PackFormat.h, PackReader.cpp).

PACK_MAGIC = b"SSPACK01"
PACK_HEADER = struct.Struct("<8sIIIIIIQQQ")  # magic, version, headerBytes, height, width, channels,
#                                             numClasses, count, checksum, reserved: 56 bytes
PACK_CLASS = struct.Struct("<48sQQ")  # name, pixelCount, imagePixelCount: 64 bytes


class Pack:
    """A pack's header, class table and (with load=True) its images (N x H x W x C uint8) and labels
    (N x H x W uint8, 255 unlabelled) as numpy arrays. The checksum is not verified here: the engine
    verifies the same file when it opens it."""

    def __init__(self, path, load=True):
        self.path = path
        with open(path, "rb") as f:
            head = f.read(PACK_HEADER.size)
            if len(head) < PACK_HEADER.size:
                raise SystemExit(f"{path}: too small to be a pack")
            (magic, version, header_bytes, self.height, self.width, self.channels, classes, self.count,
             _checksum, _reserved) = PACK_HEADER.unpack(head)
            if magic != PACK_MAGIC:
                raise SystemExit(f"{path}: not a SegStudio pack (bad magic)")
            if not 1 <= version <= 2:
                raise SystemExit(f"{path}: pack format version {version} is not supported (1 to 2)")
            if not 1 <= classes <= 255:
                raise SystemExit(f"{path}: bad header: class count {classes}")
            if header_bytes != (PACK_HEADER.size + classes * PACK_CLASS.size + 4095) // 4096 * 4096:
                raise SystemExit(f"{path}: bad header: header size {header_bytes} for {classes} classes")
            table = f.read(classes * PACK_CLASS.size)
            self.class_names, self.class_pixels, self.class_image_pixels = [], [], []
            for k in range(classes):
                name, pixels, image_pixels = PACK_CLASS.unpack_from(table, k * PACK_CLASS.size)
                self.class_names.append(name.split(b"\0")[0].decode("utf-8", "replace"))
                self.class_pixels.append(pixels)
                self.class_image_pixels.append(image_pixels)
            f.seek(0, 2)
            size = f.tell()
        self.header_bytes = header_bytes
        self.image_bytes = self.height * self.width * self.channels
        self.label_bytes = self.height * self.width
        expected = header_bytes + self.count * (self.image_bytes + self.label_bytes)
        if size != expected:
            raise SystemExit(f"{path}: {size} bytes, its header promises {expected}")
        self.images = self.labels = None
        if load:
            import numpy as np
            data = np.fromfile(path, dtype=np.uint8)  # writable, so torch.from_numpy takes it without a copy
            start = header_bytes
            middle = start + self.count * self.image_bytes
            self.images = data[start:middle].reshape(self.count, self.height, self.width, self.channels)
            self.labels = data[middle:].reshape(self.count, self.height, self.width)

    @property
    def classes(self):
        return len(self.class_names)


def median_frequency_weights(pixels, image_pixels):
    """pack::medianFrequencyWeights: freq_c = pixels of c / pixels of the images holding c; weight_c
    = median(freq of the present classes) / freq_c; 0 for a class without pixels."""
    frequency = [p / q if p > 0 and q > 0 else 0.0 for p, q in zip(pixels, image_pixels)]
    present = sorted(f for f, p, q in zip(frequency, pixels, image_pixels) if p > 0 and q > 0)
    if not present:
        return [0.0] * len(pixels)
    n = len(present)
    median = present[n // 2] if n % 2 else 0.5 * (present[n // 2 - 1] + present[n // 2])
    return [median / f if f > 0 else 0.0 for f in frequency]


def class_weights(kind, pixels, image_pixels):
    """Trainer::computeClassWeights; an empty list = no weights (--class-weighting none)."""
    if kind == "median":
        weights = median_frequency_weights(pixels, image_pixels)
    elif kind == "sqrt-median":
        weights = [math.sqrt(w) for w in median_frequency_weights(pixels, image_pixels)]
    elif kind == "inverse":
        total = float(sum(pixels))
        present = sum(1 for p in pixels if p > 0)
        weights = [total / (present * p) if p > 0 else 0.0 for p in pixels]
    else:
        return []
    if not sum(weights) > 0:
        raise SystemExit("the pack header counts no labelled pixels, so class weights are undefined")
    return weights


def prior_offsets(weights, strength=0.5):
    """ClassPriorCorrection: -strength ln(w_c) per class (0 for weight 0); None when all are equal."""
    if not weights:
        return None
    offsets = [-strength * math.log(w) if w > 0 else 0.0 for w in weights]
    return offsets if any(o != offsets[0] for o in offsets) else None


def metrics_from_confusion(confusion, classes):
    """metrics::SegmentationMetrics::fromConfusion on a row-major classes x classes list (truth, guess)."""
    nan = float("nan")
    truth = [sum(confusion[t * classes + p] for p in range(classes)) for t in range(classes)]
    predicted = [sum(confusion[t * classes + p] for t in range(classes)) for p in range(classes)]
    total = float(sum(truth))
    result = {"pixels": int(total), "global_accuracy": nan, "mean_accuracy": nan, "mean_iou": nan,
              "weighted_iou": nan, "class_iou": [nan] * classes}
    if total == 0:
        return result
    result["global_accuracy"] = sum(confusion[c * classes + c] for c in range(classes)) / total
    iou_sum = accuracy_sum = weighted = 0.0
    with_union = with_truth = 0
    for c in range(classes):
        hit = float(confusion[c * classes + c])
        union = truth[c] + predicted[c] - hit
        if union > 0:
            result["class_iou"][c] = hit / union
            iou_sum += hit / union
            weighted += truth[c] / total * hit / union
            with_union += 1
        if truth[c] > 0:
            accuracy_sum += hit / truth[c]
            with_truth += 1
    result["mean_accuracy"] = accuracy_sum / with_truth
    result["mean_iou"] = iou_sum / with_union
    result["weighted_iou"] = weighted
    return result


# --------------------------------------------------------------------------------------------
# The learning-rate schedule and the time budget (LrSchedule.cpp, TimeBudgetPlanner.cpp,
# BudgetController.cpp), without validation in the plan.

def automatic_warmup(total):
    return min(100, max(1, total) // 10)


class LrSchedule:
    """lr as a function of the step: none / step / cosine, times a linear warm-up; replan() re-lays
    the cosine over a new end keeping the progress reached, as LrSchedule::replan."""

    def __init__(self, base, minimum, kind, warmup, total, iterations_per_epoch, drop_period=10, drop_factor=0.1):
        self.base, self.minimum, self.kind = base, minimum, kind
        self.drop_every = max(1, drop_period * iterations_per_epoch)
        self.drop_factor = drop_factor
        self.automatic = warmup < 0
        self.warmup = warmup if warmup >= 0 else automatic_warmup(total)
        self.total = max(1, total)
        self.start = 0
        self.start_progress = 0.0

    def progress(self, step):
        if step >= self.total:
            return 1.0
        span = float(max(1, self.total - self.start))
        return min(1.0, max(0.0, self.start_progress + (1.0 - self.start_progress) * (step - self.start) / span))

    def replan(self, start, total):
        self.start_progress = self.progress(start)
        self.start = start
        self.total = max(start + 1, total)
        if self.automatic and start < self.warmup // 2:
            self.warmup = max(start + 1, automatic_warmup(self.total))

    def at(self, step):
        lr = self.base
        if self.kind == "step":
            lr = self.base * self.drop_factor ** (step // self.drop_every)
        elif self.kind == "cosine":
            lr = self.minimum + (self.base - self.minimum) * 0.5 * (1.0 + math.cos(math.pi * self.progress(step)))
        if step < self.warmup:
            lr *= (step + 1) / self.warmup
        return lr


class BudgetPlanner:
    """The pace (seconds a step) as TimeBudgetPlanner keeps it: a moving average with weight 0.5 for
    the newest window, planned with the slower of it and the latest window; the plan is the most
    steps that fit in what is left of the budget."""

    def __init__(self, budget_seconds):
        self.budget = budget_seconds
        self.average = None
        self.latest = 0.0

    def observe(self, steps, seconds):
        if steps > 0 and seconds > 0:
            self.latest = seconds / steps
            self.average = self.latest if self.average is None else 0.5 * self.average + 0.5 * self.latest

    def pace(self):
        return max(self.average, self.latest)

    def plan(self, position, elapsed):
        left = self.budget - elapsed
        if left <= 0:
            return position
        return position + int(left / self.pace())


# --------------------------------------------------------------------------------------------
# The model (torch from here on).

Module = nn.Module if nn is not None else object


class Layout:
    """ConvLayout: records each convolution with its output stride; conv() is the padded ("same")
    convolution of ConvLayout::conv."""

    def __init__(self):
        self.specs = []

    def conv(self, cin, cout, kernel, stride_of_output, stride=1, dilation=1, groups=1, bias=False, norm=True):
        c = nn.Conv2d(cin, cout, kernel, stride=stride, padding=dilation * (kernel // 2), dilation=dilation,
                      groups=groups, bias=bias)
        self.specs.append((cin, cout, kernel, groups, stride_of_output, bias, norm, True))
        return c


def conv_norm(layers, conv, activation):
    layers += [conv, nn.BatchNorm2d(conv.out_channels)]
    if activation:
        layers.append(nn.ReLU(inplace=True))


class BasicBlock(Module):
    """Two 3x3 convs and a shortcut (a strided 1x1 conv + BN where the shape changes), added, ReLU."""

    def __init__(self, cin, cout, stride, dilation, layout, stride_of_output):
        super().__init__()
        body = []
        conv_norm(body, layout.conv(cin, cout, 3, stride_of_output, stride, dilation), True)
        conv_norm(body, layout.conv(cout, cout, 3, stride_of_output, 1, dilation), False)
        self.body = nn.Sequential(*body)
        self.shortcut = None
        if stride != 1 or cin != cout:
            shortcut = []
            conv_norm(shortcut, layout.conv(cin, cout, 1, stride_of_output, stride), False)
            self.shortcut = nn.Sequential(*shortcut)

    def forward(self, x):
        return torch.relu(self.body(x) + (self.shortcut(x) if self.shortcut is not None else x))


class ResNetEncoder(Module):
    """ResNetEncoder.cpp: a deep stem (3x3/2 3->32, 3x3 32->32, 3x3/2 32->64, each BN + ReLU), the
    first stage inside the stem (its output is the stride-4 skip), the other three in the body;
    past the output stride a stage dilates instead of striding. At output stride 32 the third
    stage's last block hands out the stride-16 features."""

    def __init__(self, layout, blocks=(2, 2, 2, 2), output_stride=32, last_stage=256):
        super().__init__()
        stem = []
        conv_norm(stem, layout.conv(3, 32, 3, 2, stride=2), True)
        conv_norm(stem, layout.conv(32, 32, 3, 2), True)
        conv_norm(stem, layout.conv(32, 64, 3, 4, stride=2), True)
        body = []
        stride_now, channels, dilation = 4, 64, 1
        for s, width in enumerate((64, 128, 256, last_stage)):
            target = stem if s == 0 else body
            for block in range(blocks[s]):
                stride = 2 if block == 0 and s > 0 else 1
                if stride == 2 and stride_now == output_stride:
                    stride, dilation = 1, dilation * 2
                stride_now *= stride
                target.append(BasicBlock(channels, width, stride, dilation, layout, stride_now))
                channels = width
        self.stem = nn.Sequential(*stem)
        self.body = nn.Sequential(*body)
        self.middle_layer = blocks[1] + blocks[2] - 1 if output_stride == 32 else -1
        self.low_level_channels, self.middle_channels, self.deep_channels = 64, (256 if output_stride == 32 else 0), last_stage
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, a=0, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.ones_(m.weight)
                nn.init.zeros_(m.bias)
        for m in self.modules():
            if isinstance(m, BasicBlock):
                nn.init.zeros_(m.body[-1].weight)  # the block starts as its shortcut

    def forward(self, x):
        low = self.stem(x)
        middle = None
        x = low
        for index, layer in enumerate(self.body):
            x = layer(x)
            if index == self.middle_layer:
                middle = x
        return low, middle, x


def pointwise_conv(cin, cout, layout, stride_of_output):
    layers = []
    conv_norm(layers, layout.conv(cin, cout, 1, stride_of_output), True)
    return nn.Sequential(*layers)


def separable_conv(cin, cout, dilation, layout, stride_of_output):
    layers = []
    conv_norm(layers, layout.conv(cin, cin, 3, stride_of_output, 1, dilation, groups=cin), True)
    conv_norm(layers, layout.conv(cin, cout, 1, stride_of_output), True)
    return nn.Sequential(*layers)


class AtrousSpatialPyramid(Module):
    """AtrousSpatialPyramid.cpp: 1x1, a separable 3x3 per rate, image pooling (1x1 conv with bias,
    ReLU, no BN; not recorded in the layout), concatenated and fused by a 1x1 conv + BN + ReLU."""

    def __init__(self, cin, channels, rates, layout, stride_of_output):
        super().__init__()
        self.branches = nn.ModuleList([pointwise_conv(cin, channels, layout, stride_of_output)] +
                                      [separable_conv(cin, channels, r, layout, stride_of_output) for r in rates])
        self.pooling = nn.Conv2d(cin, channels, 1)
        layout.specs.append((cin, channels, 1, 1, stride_of_output, True, False, False))
        self.fuse = pointwise_conv((len(rates) + 2) * channels, channels, layout, stride_of_output)

    def forward(self, x):
        outputs = [branch(x) for branch in self.branches]
        pooled = torch.relu(self.pooling(F.adaptive_avg_pool2d(x, 1)))
        outputs.append(pooled.expand(-1, -1, x.size(2), x.size(3)))
        return self.fuse(torch.cat(outputs, 1))


def resize(x, height, width):
    return F.interpolate(x, size=(height, width), mode="bilinear", align_corners=False)


class DeepLabV3Plus(Module):
    """DeepLabV3Plus.cpp with the registry's resNet18DeepLab(classes, 256, 64)."""

    def __init__(self, classes, pyramid=128, rates=(2, 4), skip=32, middle=64, decoder=96):
        super().__init__()
        self.layout = Layout()
        self.encoder = ResNetEncoder(self.layout, output_stride=32, last_stage=256)
        self.pyramid = AtrousSpatialPyramid(self.encoder.deep_channels, pyramid, rates, self.layout, 32)
        self.skip = pointwise_conv(self.encoder.low_level_channels, skip, self.layout, 4)
        self.middle_skip = pointwise_conv(self.encoder.middle_channels, middle, self.layout, 16)
        self.middle_fuse = separable_conv(pyramid + middle, pyramid, 1, self.layout, 16)
        self.refine = nn.Sequential(*separable_conv(pyramid + skip, decoder, 1, self.layout, 4),
                                    *separable_conv(decoder, decoder, 1, self.layout, 4))
        self.classifier = nn.Conv2d(decoder, classes, 1)
        self.layout.specs.append((decoder, classes, 1, 1, 4, True, False, True))
        for head in (self.pyramid, self.skip, self.refine, self.classifier, self.middle_skip, self.middle_fuse):
            for m in head.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, a=0, mode="fan_out", nonlinearity="relu")
                    if m.bias is not None:
                        nn.init.zeros_(m.bias)

    def forward(self, images):
        height, width = images.size(2), images.size(3)
        low, middle, deep = self.encoder(images)
        context = self.pyramid(deep)
        context = resize(context, middle.size(2), middle.size(3))
        context = self.middle_fuse(torch.cat([context, self.middle_skip(middle)], 1))
        context = resize(context, low.size(2), low.size(3))
        x = self.refine(torch.cat([context, self.skip(low)], 1))
        return resize(self.classifier(x), height, width)


# --------------------------------------------------------------------------------------------
# Data on the GPU.

def augment(images, labels, records, crop_height, crop_width, translate, flip, generator):
    """Augmenter::apply for the default options, batched: each output pixel (y, x) of sample n is
    source pixel (rows[n][y], cols[n][x]) of its record, found backwards through the window, the
    shift and the flip; pixels with no source are black (image) and 255 (label). Gathers uint8
    N x h x w x 3 and N x h x w, no host synchronisation (random numbers drawn on the device)."""
    n = records.numel()
    height, width = images.size(1), images.size(2)
    h = min(crop_height, height) if crop_height > 0 else height
    w = min(crop_width, width) if crop_width > 0 else width
    device = images.device

    def integers(low, high):
        return torch.randint(low, high, (n,), device=device, generator=generator)

    flips = integers(0, 2).bool() if flip else torch.zeros(n, dtype=torch.bool, device=device)
    if translate > 0:
        dx, dy = integers(-translate, translate + 1), integers(-translate, translate + 1)
    else:
        dx = dy = torch.zeros(n, dtype=torch.long, device=device)
    top, left = integers(0, height - h + 1), integers(0, width - w + 1)  # floor(u (full - size + 1))
    rows = top[:, None] + torch.arange(h, device=device)[None, :] - dy[:, None]
    cols = left[:, None] + torch.arange(w, device=device)[None, :] - dx[:, None]
    row_inside = (rows >= 0) & (rows < height)
    col_inside = (cols >= 0) & (cols < width)
    cols = torch.where(flips[:, None], width - 1 - cols, cols)
    rows, cols = rows.clamp(0, height - 1), cols.clamp(0, width - 1)
    sample, r, c = records[:, None, None], rows[:, :, None], cols[:, None, :]
    outside = ~(row_inside[:, :, None] & col_inside[:, None, :])
    out_images = images[sample, r, c].masked_fill(outside[..., None], 0)
    out_labels = labels[sample, r, c].masked_fill(outside, UNLABELLED)
    return out_images, out_labels


def to_input(images, mean, scale, channels_last):
    """imagesToDevice + normaliseImages: N x H x W x 3 uint8 -> N x 3 x H x W float, (x - mean) x scale;
    the permuted NHWC tensor is channels-last already."""
    x = (images.permute(0, 3, 1, 2).float() - mean) * scale
    return x.contiguous(memory_format=torch.channels_last if channels_last else torch.contiguous_format)


def weighted_cross_entropy(logits, target, weight):
    """SegmentationLoss: sum_i w[y_i] nll_i / sum_i w[y_i] over labelled pixels, in fp32."""
    per_pixel = F.cross_entropy(logits.float(), target, weight=weight, ignore_index=UNLABELLED, reduction="none")
    valid = target != UNLABELLED
    if weight is not None:
        denominator = (weight[target.masked_fill(~valid, 0)] * valid).sum()
    else:
        denominator = valid.sum().float()
    return per_pixel.sum() / denominator.clamp_min(1e-12)


def validate(model, images, labels, batch, classes, weight, offsets, mean, scale, amp, channels_last):
    """Validation.cpp + ConfusionMatrix.cpp: eval mode, whole images in the training batch size,
    bf16 forward, per-image loss averaged, the corrected logits' argmax counted into the confusion
    matrix where the label is a class."""
    model.eval()
    confusion = torch.zeros(classes * classes, dtype=torch.long, device=images.device)
    loss_sum = torch.zeros((), dtype=torch.float64, device=images.device)
    with torch.no_grad():
        for start in range(0, images.size(0), batch):
            x = to_input(images[start:start + batch], mean, scale, channels_last)
            y = labels[start:start + batch].long()
            with torch.autocast(images.device.type, dtype=torch.bfloat16, enabled=amp == "bf16"):
                logits = model(x)
            for i in range(y.size(0)):
                loss_sum += weighted_cross_entropy(logits[i:i + 1], y[i:i + 1], weight).double()
            scores = logits.float() if offsets is None else logits.float() + offsets.view(1, -1, 1, 1)
            guess = scores.argmax(1).reshape(-1)
            truth = y.reshape(-1)
            valid = truth < classes
            confusion += torch.bincount(truth[valid] * classes + guess[valid], minlength=classes * classes)
    model.train()
    result = metrics_from_confusion(confusion.tolist(), classes)
    result["loss"] = loss_sum.item() / max(1, images.size(0))
    return result


# --------------------------------------------------------------------------------------------

def say(text):
    print(text, file=sys.stderr, flush=True)


def finite_or_none(value):
    return value if isinstance(value, (int, float)) and math.isfinite(value) else None


def cudagraph_skips():
    """How often Inductor ran a graph without CUDA graphs (it logs why), where this torch counts it."""
    try:
        from torch._dynamo.utils import counters
        return int(counters["inductor"].get("cudagraph_skips", 0))
    except Exception:
        return None


def make_optimizer(args, model, weight_decay, cuda):
    parameters = list(model.parameters())
    if args.optimizer == "sgd":
        return torch.optim.SGD(parameters, lr=args.lr, momentum=args.momentum, weight_decay=weight_decay, foreach=True)
    fused = {"fused": True} if cuda else {}  # --device cpu (a test path): LibTorch 1.13's Python has no CPU fused step
    if args.optimizer == "adam":
        return torch.optim.Adam(parameters, lr=args.lr, betas=(args.beta1, args.beta2), weight_decay=weight_decay,
                                **fused)
    return torch.optim.AdamW(parameters, lr=args.lr, betas=(args.beta1, args.beta2), weight_decay=weight_decay,
                             **fused)


def describe(args):
    classes = Pack(args.train_pack, load=False).classes if args.train_pack else args.classes
    specs = conv_specs(classes)
    crop = (args.crop_height or 360, args.crop_width or 480)
    return {"model": MODEL_NAME, "classes": classes, "parameters": spec_parameters(specs),
            "expected_parameters": expected_parameters(classes),
            "forward_gflops_360x480": forward_flops(specs, 360, 480) / 1e9,
            "forward_gflops_per_image": forward_flops(specs, *crop) / 1e9, "crop": list(crop)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--train-pack")
    p.add_argument("--val-pack")
    p.add_argument("--time-budget", type=float, default=0.0, help="seconds of training (planned as the engine)")
    p.add_argument("--steps", type=int, default=0, help="a fixed number of steps instead of a budget")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--optimizer", choices=["adamw", "adam", "sgd"], default="adamw")
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--min-lr", type=float, default=0.0)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--beta1", type=float, default=0.9)
    p.add_argument("--beta2", type=float, default=0.999)
    p.add_argument("--weight-decay", type=float, default=-1.0, help="-1: 0.1 for adamw, 1e-2 for sgd and adam")
    p.add_argument("--schedule", choices=["cosine", "none", "step"], default="cosine")
    p.add_argument("--warmup", type=int, default=-1, help="-1: a tenth of the run, at most 100")
    p.add_argument("--class-weighting", choices=["sqrt-median", "median", "inverse", "none"], default="sqrt-median")
    p.add_argument("--translate", type=int, default=10)
    p.add_argument("--no-flip", dest="flip", action="store_false")
    p.add_argument("--crop-height", type=int, default=0)
    p.add_argument("--crop-width", type=int, default=0)
    p.add_argument("--amp", choices=["bf16", "none"], default="bf16")
    p.add_argument("--no-channels-last", dest="channels_last", action="store_false")
    p.add_argument("--cudnn-benchmark", action="store_true", help="cuDNN's algorithm search (the engine's default: off)")
    p.add_argument("--compile", action="store_true", help="torch.compile the forward pass and loss")
    p.add_argument("--cuda-graphs", action="store_true", help='torch.compile(mode="reduce-overhead"): CUDA graphs')
    p.add_argument("--warmup-steps", type=int, default=3, help="compile/capture steps before the clock, then undone")
    p.add_argument("--log-interval", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--device", default="cuda", help="cuda; cpu only to test this script where there is no GPU")
    p.add_argument("--peak-tflops", type=float, default=0.0, help="for MFU (default: the GPU's datasheet figure)")
    p.add_argument("--describe", action="store_true",
                   help="print the model's parameters and FLOPs (at the crop) and exit; needs no torch")
    p.add_argument("--classes", type=int, default=11, help="--describe without --train-pack: the class count")
    args = p.parse_args()

    if args.describe:
        print(json.dumps(describe(args)))
        return
    if torch is None:
        raise SystemExit("pytorch_twin.py needs torch (only --describe works without it)")
    if not args.train_pack or not args.val_pack:
        raise SystemExit("--train-pack and --val-pack are required")
    if (args.time_budget > 0) == (args.steps > 0):
        raise SystemExit("give --time-budget or --steps, one of them")
    device = torch.device(args.device)
    cuda = device.type == "cuda"
    if cuda and not torch.cuda.is_available():
        raise SystemExit("no CUDA device (--device cpu runs this script slowly, to test it)")
    compile_mode = "reduce-overhead" if args.cuda_graphs else "default" if args.compile else None

    def sync():
        if cuda:
            torch.cuda.synchronize()

    torch.backends.cudnn.benchmark = args.cudnn_benchmark
    gpu = torch.cuda.get_device_name(device) if cuda else "cpu"
    started = time.perf_counter()
    train_pack, val_pack = Pack(args.train_pack), Pack(args.val_pack)
    classes = train_pack.classes
    if val_pack.classes != classes:
        raise SystemExit(f"{args.val_pack}: {val_pack.classes} classes, the training pack {classes}")
    if args.crop_height > train_pack.height or args.crop_width > train_pack.width:
        raise SystemExit(f"the crop {args.crop_height}x{args.crop_width} is larger than the images")
    batches_per_epoch = train_pack.count // args.batch  # the loader drops a final partial batch
    if batches_per_epoch < 1:
        raise SystemExit(f"{args.train_pack}: {train_pack.count} records are fewer than one batch of {args.batch}")
    weights = class_weights(args.class_weighting, train_pack.class_pixels, train_pack.class_image_pixels)
    offsets = prior_offsets(weights)
    weight_decay = args.weight_decay if args.weight_decay >= 0 else (0.1 if args.optimizer == "adamw" else 1e-2)

    torch.manual_seed(args.seed)
    model = DeepLabV3Plus(classes)
    parameters = sum(t.numel() for t in model.parameters())
    specs = conv_specs(classes)
    say(f"{MODEL_NAME} twin: {parameters:,} parameters (expected from the C++ code: "
        f"{expected_parameters(classes):,}), {classes} classes, torch {torch.__version__}, {gpu}")
    if not parameters == expected_parameters(classes) == spec_parameters(specs):
        raise SystemExit(f"the twin has {parameters:,} parameters, the C++ code {expected_parameters(classes):,}")
    if model.layout.specs != specs:
        raise SystemExit("the twin's layers differ from conv_specs()")
    if classes == 11 and abs(forward_flops(specs, 360, 480) / 1e9 - REGISTRY_GFLOPS_360x480) >= 0.005:
        raise SystemExit("the twin's FLOPs at 360x480 differ from the registry's 11.82 G")  # CamVid's figure
    crop = (min(args.crop_height, train_pack.height) if args.crop_height > 0 else train_pack.height,
            min(args.crop_width, train_pack.width) if args.crop_width > 0 else train_pack.width)
    gflops = forward_flops(specs, *crop) / 1e9
    model.to(device, memory_format=torch.channels_last if args.channels_last else torch.contiguous_format)
    model.train()

    # Both packs on the GPU once, as uint8 (the engine's --data-on-device; val for the final pass).
    train_images = torch.from_numpy(train_pack.images).to(device)
    train_labels = torch.from_numpy(train_pack.labels).to(device)
    val_images = torch.from_numpy(val_pack.images).to(device)
    val_labels = torch.from_numpy(val_pack.labels).to(device)
    weight = torch.tensor(weights, dtype=torch.float32, device=device) if weights else None
    offset_tensor = torch.tensor(offsets, dtype=torch.float32, device=device) if offsets else None
    mean = torch.tensor([0.485 * 255, 0.456 * 255, 0.406 * 255], device=device).view(1, 3, 1, 1)
    scale = torch.tensor([1 / (0.229 * 255), 1 / (0.224 * 255), 1 / (0.225 * 255)], device=device).view(1, 3, 1, 1)
    device = train_images.device  # with its index (cuda:0), as the generator and randperm want it
    generator = torch.Generator(device=device)
    say(f"packs on the GPU: {train_pack.count} train / {val_pack.count} val images {train_pack.height}x"
        f"{train_pack.width}, {time.perf_counter() - started:.1f} s; class weights "
        + ", ".join(f"{w:.3f}" for w in weights))

    def forward_loss(x, y):
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=args.amp == "bf16"):
            logits = model(x)
        return weighted_cross_entropy(logits, y, weight)  # outside autocast, as the engine's loss

    step_loss = forward_loss
    cuda_graphs = compile_mode == "reduce-overhead"
    optimizer = make_optimizer(args, model, weight_decay, cuda)

    def train_step(records, lr):
        if cuda_graphs:
            torch.compiler.cudagraph_mark_step_begin()
        images, labels = augment(train_images, train_labels, records, args.crop_height, args.crop_width,
                                 args.translate, args.flip, generator)
        x = to_input(images, mean, scale, args.channels_last)
        for group in optimizer.param_groups:
            group["lr"] = lr
        optimizer.zero_grad(set_to_none=True)
        loss = step_loss(x, labels.long())
        detached = loss.detach().double()  # read before any later replay can reuse the output's memory
        loss.backward()
        optimizer.step()
        return detached

    compile_seconds, compile_error = 0.0, None
    if compile_mode:
        # Compile and capture in warm-up steps, then put everything back: weights and batch-norm
        # statistics in place (static addresses for the graphs), a fresh optimiser, the data stream
        # reseeded. The clock starts after this.
        snapshot = {k: v.detach().clone() for k, v in model.state_dict().items()}
        warm_started = time.perf_counter()
        try:
            step_loss = torch.compile(forward_loss, mode=compile_mode, dynamic=False)
            generator.manual_seed(args.seed)
            warm_order = torch.randperm(train_pack.count, device=device, generator=generator)
            warm_order = warm_order[:batches_per_epoch * args.batch].view(batches_per_epoch, args.batch)
            for k in range(max(1, args.warmup_steps)):
                train_step(warm_order[k % batches_per_epoch], 0.0)  # lr 0: AdamW leaves the weights as they are
            sync()
        except Exception as error:  # a compiler failure leaves the eager twin, and says so
            compile_error = f"{type(error).__name__}: {error}"[:500]
            say(f"torch.compile failed, training eagerly: {compile_error}")
            step_loss, cuda_graphs = forward_loss, False
        compile_seconds = time.perf_counter() - warm_started
        model.load_state_dict(snapshot)
        optimizer = make_optimizer(args, model, weight_decay, cuda)
        say(f"compile ({compile_mode}) and {args.warmup_steps} warm-up steps: {compile_seconds:.1f} s, undone")

    generator.manual_seed(args.seed)
    budgeted = args.time_budget > 0
    end = NO_END if budgeted else args.steps
    schedule = LrSchedule(args.lr, args.min_lr, args.schedule, args.warmup, end, batches_per_epoch)
    planner = BudgetPlanner(args.time_budget)
    first_plan = None
    window = None  # (position, time) of the pacing window's start
    loss_sum = torch.zeros((), dtype=torch.float64, device=device)
    loss_steps, last_loss = 0, float("nan")
    logs = []  # (position, time) at each log line, for the steady images/s
    order = None
    sync()
    if cuda:
        torch.cuda.reset_peak_memory_stats(device)
    train_start_unix = time.time()
    t0 = time.perf_counter()
    position = 0
    while position < end:
        batch_in_epoch = position % batches_per_epoch
        if order is None or batch_in_epoch == 0:
            order = torch.randperm(train_pack.count, device=device, generator=generator)
            order = order[:batches_per_epoch * args.batch].view(batches_per_epoch, args.batch)
        loss_sum += train_step(order[batch_in_epoch], schedule.at(position))
        loss_steps += 1
        position += 1
        if budgeted:  # BudgetController::stepDone: the first step opens the window, three more plan
            if window is None:
                sync()
                window = (position, time.perf_counter())
            else:
                every = 3 if planner.average is None else min(max((end - position) // 4, 1), args.log_interval)
                if position - window[0] >= every:
                    sync()
                    now = time.perf_counter()
                    planner.observe(position - window[0], now - window[1])
                    window = (position, now)
                    end = max(position, planner.plan(position, now - t0))
                    if first_plan is None:
                        first_plan = end
                        if args.warmup > end // 2:  # BudgetController::replan: an explicit warm-up that does not fit
                            schedule.warmup = max(1, end // 10)
                        say(f"plan: {end} steps in the {args.time_budget:.0f} s budget at {planner.pace():.4f} s/step")
                    schedule.replan(position, end)
            if time.perf_counter() - t0 > args.time_budget + 60:  # a guard; the plan ends at the budget
                say("stopped 60 s past the budget: the plan did not hold")
                break
        if position % args.log_interval == 0 or position >= end:
            mean_loss = loss_sum.item() / max(1, loss_steps)  # the one host read, at log intervals
            now = time.perf_counter()
            images_per_s = (position - logs[-1][0]) * args.batch / (now - logs[-1][1]) if logs else \
                position * args.batch / (now - t0)
            logs.append((position, now))
            last_loss = mean_loss
            say(f"step {position}  epoch {position // batches_per_epoch + 1}  loss {mean_loss:.4f}  "
                f"lr {schedule.at(position - 1):.2e}  {images_per_s:.1f} img/s  {now - t0:.1f} s")
            if not math.isfinite(mean_loss):
                raise SystemExit(f"loss became {mean_loss} by step {position}")
            loss_sum.zero_()
            loss_steps = 0
    sync()
    train_seconds = time.perf_counter() - t0
    train_end_unix = time.time()
    peak_allocated = torch.cuda.max_memory_allocated(device) if cuda else 0
    peak_reserved = torch.cuda.max_memory_reserved(device) if cuda else 0
    steady = [(p_, t_) for p_, t_ in logs if p_ >= min(args.log_interval, position)]
    if len(steady) >= 2 and steady[-1][1] > steady[0][1]:
        images_per_s = (steady[-1][0] - steady[0][0]) * args.batch / (steady[-1][1] - steady[0][1])
    else:
        images_per_s = position * args.batch / train_seconds

    val_started = time.perf_counter()
    metrics = validate(model, val_images, val_labels, args.batch, classes, weight, offset_tensor, mean, scale,
                       args.amp, args.channels_last)
    val_seconds = time.perf_counter() - val_started
    say(f"val: loss {metrics['loss']:.4f}  global acc {metrics['global_accuracy']:.4f}  mIoU {metrics['mean_iou']:.4f} "
        f"({val_seconds:.1f} s); {position} steps in {train_seconds:.1f} s, {images_per_s:.1f} img/s")
    peak = args.peak_tflops or peak_bf16_tflops(gpu)
    result = {
        "framework": "pytorch-twin", "model": MODEL_NAME, "gpu": gpu, "torch": torch.__version__,
        "parameters": parameters, "classes": classes, "batch": args.batch, "optimizer": args.optimizer,
        "lr": args.lr, "weight_decay": weight_decay, "class_weighting": args.class_weighting,
        "crop": list(crop), "amp": args.amp, "channels_last": args.channels_last,
        "compile": compile_mode or "eager", "compile_error": compile_error, "compile_s": round(compile_seconds, 2),
        "cudagraph_skips": cudagraph_skips() if compile_mode == "reduce-overhead" else None,
        "time_budget_s": args.time_budget, "train_s": round(train_seconds, 3), "steps": position,
        "first_plan_steps": first_plan, "epochs": position / batches_per_epoch, "images": position * args.batch,
        "images_per_s": round(images_per_s, 2), "images_per_s_all": round(position * args.batch / train_seconds, 2),
        "forward_gflops_per_image": round(gflops, 4),
        "mfu": round(images_per_s * 3 * gflops * 1e9 / (peak * 1e12), 4) if peak else None,
        "peak_tflops": peak,
        "peak_memory_allocated_gib": round(peak_allocated / 2 ** 30, 3),
        "peak_memory_reserved_gib": round(peak_reserved / 2 ** 30, 3),
        "last_loss": finite_or_none(last_loss), "val_loss": finite_or_none(metrics["loss"]),
        "val_miou": finite_or_none(metrics["mean_iou"]), "val_global_accuracy": finite_or_none(metrics["global_accuracy"]),
        "val_mean_accuracy": finite_or_none(metrics["mean_accuracy"]),
        "class_iou": [finite_or_none(v) for v in metrics["class_iou"]], "val_s": round(val_seconds, 2),
        "train_start_unix": train_start_unix, "train_end_unix": train_end_unix,
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
