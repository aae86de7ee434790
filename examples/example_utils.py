"""Shared by the examples: the --short / --plot flags, progress over long loops (tqdm when it is
installed, plain prints otherwise), lines printed beside a progress bar without breaking it, the
loss plot (matplotlib, only when --plot is given), and optional imports that say how to install
what is missing."""
import argparse
import importlib
import os
import sys

try:
    from tqdm import tqdm
except ImportError:   # optional: plain prints instead
    tqdm = None


def parse_args(description, argv=None):
    """Parse `--short` (also DEFUN_EXAMPLES_SHORT=1: a few steps, for CI) and `--plot [PATH]`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('--short', action='store_true',
                        help='run a few steps only (also set by DEFUN_EXAMPLES_SHORT=1)')
    parser.add_argument('--plot', nargs='?', const='', default=None, metavar='PATH',
                        help='save a loss plot (PNG; needs matplotlib)')
    args = parser.parse_args(argv)
    args.short = args.short or os.environ.get('DEFUN_EXAMPLES_SHORT') == '1'
    return args


def require(module, distribution, purpose):
    """Import optional `module`, or stop with a message saying what needs it and how to get it
    (instead of a bare ModuleNotFoundError)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        script = os.path.basename(sys.argv[0])
        sys.exit(f"{script} needs {distribution} for {purpose}, and it is not installed. Install "
                 f"the examples' extras with:  python -m pip install '.[examples]'  (or just "
                 f"python -m pip install {distribution})")


def say(text):
    """Print a line; beside a tqdm bar, through tqdm.write, so the bar is redrawn below it."""
    if tqdm is not None:
        tqdm.write(text)
    else:
        print(text, flush=True)


def progress(iterable, total, desc):
    """Iterate with a tqdm bar when tqdm is installed, else print a line every tenth of the way."""
    if tqdm is not None:
        yield from tqdm(iterable, total=total, desc=desc)
        return
    every = max(1, total // 10)
    for i, item in enumerate(iterable):
        if i % every == 0 or i == total - 1:
            print(f'{desc}: {i + 1}/{total}', flush=True)
        yield item


def save_plot(args, default_name, series, ylabel='loss', xlabel='step'):
    """Save `series` ({label: list of values}) as a PNG when --plot was given; return its path."""
    if args.plot is None:
        return None
    import matplotlib   # optional: needed only for --plot
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    path = args.plot or default_name
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, values in series.items():
        ax.plot(range(1, len(values) + 1), values, label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    print('saved plot to', path)
    return path
