"""Specs of tf.math.special's ops (Bessel functions, Dawson, Ei, Fresnel, Spence): references are
values recorded with TF 2.21 (float64) at the spec's inputs; gradients by finite differences."""
import numpy as np

import defun as tf
from tests.ops.spec import Spec

X = np.array([0.3, 0.9, 1.7, 2.6])
TF_VALUES = {
    'bessel_i0': [1.0226268793515971, 1.2129851657286845, 1.8639649620738397, 3.553268904243672],
    'bessel_i0e': [0.7575806251825479, 0.4931629661007054, 0.3405156879824709, 0.2639139958759028],
    'bessel_i1': [0.15169384000359282, 0.4971264481609643, 1.1963465656344818, 2.755384340504707],
    'bessel_i1e': [0.11237756063983881, 0.20211653087685583, 0.21855280659849335, 0.20465225432502712],
    'bessel_k0': [1.3724600605442978, 0.4867303081629007, 0.16549631805699652, 0.05539830328632195],
    'bessel_k0e': [1.8526273007720149, 1.1971633802518515, 0.9059181385685512, 0.7458682430306119],
    'bessel_k1': [3.055992033457325, 0.7165335787760191, 0.2093624882040826, 0.0652840450585315],
    'bessel_k1e': [4.12515776224447, 1.76238821960592, 1.1460392462302547, 0.8789672805333147],
    'bessel_j0': [0.9776262465382962, 0.8075237981225449, 0.39798485944610945, -0.09680495439703835],
    'bessel_j1': [0.148318816273104, 0.4059495460788056, 0.5777652315290233, 0.4708182665175787],
    'bessel_y0': [-0.8072735778045196, 0.0056283066352055405, 0.45202700018163466, 0.4813305905869565],
    'bessel_y1': [-2.2931051383885293, -0.8731265824563288, -0.2847262450640684, 0.18836354435017066],
    'dawsn': [0.28263166502131193, 0.5407243187262987, 0.37255934897407883, 0.212165124242499],
    'expint': [-0.30266853926582604, 1.6228117136968674, 3.9209632013549047, 7.576114769787599],
    'fresnel_cos': [0.2994009760520472, 0.7648230212733264, 0.32382687600390025, 0.38893749619196905],
    'fresnel_sin': [0.014116998006576587, 0.3397763443931403, 0.5491959403215687, 0.5499893231527195],
    'spence': [0.8893776242860388, 0.1026177910993911, -0.6051584023377057, -1.207776992369138],
}
OP_TYPES = {'bessel_i0': 'BesselI0', 'bessel_i0e': 'BesselI0e', 'bessel_i1': 'BesselI1',
            'bessel_i1e': 'BesselI1e', 'bessel_k0': 'BesselK0', 'bessel_k0e': 'BesselK0e',
            'bessel_k1': 'BesselK1', 'bessel_k1e': 'BesselK1e', 'bessel_j0': 'BesselJ0',
            'bessel_j1': 'BesselJ1', 'bessel_y0': 'BesselY0', 'bessel_y1': 'BesselY1',
            'dawsn': 'Dawsn', 'expint': 'Expint', 'fresnel_cos': 'FresnelCos',
            'fresnel_sin': 'FresnelSin', 'spence': 'Spence'}


def _spec(name):
    expected = np.array(TF_VALUES[name])
    return Spec(OP_TYPES[name], getattr(tf.math.special, name), [X.copy()],
                lambda x: expected, rtol=1e-12, atol=1e-14)


SPECS = [_spec(name) for name in OP_TYPES]
