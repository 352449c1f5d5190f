"""Playing self-play games beyond one machine: :class:`RayRunner` runs ``simulate``'s games on a
Ray cluster (``pip install '.[cluster]'`` in the checkout).  Ray itself is imported only when a runner
starts, so this package imports without it."""

from literaki_cli.cluster.raysim import INSTALL_HINT, RayRunner, check_address, import_ray

__all__ = ["INSTALL_HINT", "RayRunner", "check_address", "import_ray"]
