"""Optimizers on one problem (SGD with Nesterov, RMSprop centered, Adagrad, Adadelta, Adamax,
Nadam, AdamW weight decay, Lion, Ftrl, Adafactor, Adam with amsgrad and EMA, gradient
accumulation), LR schedules (CosineDecay with warmup, PiecewiseConstantDecay,
InverseTimeDecay, PolynomialDecay); get/set_weights, clone_model, to_json/model_from_json,
get_config/from_config and a nested Sequential summary."""
import json

import numpy as np
import tensorflow as tf

keras = tf.keras
rng = np.random.RandomState(43)
x = rng.randn(32, 4).astype('float32')
y = (x @ np.array([[1.0], [-1.0], [2.0], [0.0]], 'float32') + 0.5).astype('float32')


def build():
    keras.utils.set_random_seed(43)
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation='tanh'),
                             keras.layers.Dense(1)])


optimizers = [
    keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True),
    keras.optimizers.RMSprop(0.01, centered=True),
    keras.optimizers.Adagrad(0.1), keras.optimizers.Adadelta(1.0), keras.optimizers.Adamax(0.02),
    keras.optimizers.Nadam(0.02), keras.optimizers.AdamW(0.02, weight_decay=0.1),
    keras.optimizers.Lion(0.005), keras.optimizers.Ftrl(0.1, l1_regularization_strength=0.01),
    keras.optimizers.Adafactor(0.05),
    keras.optimizers.Adam(0.02, amsgrad=True, use_ema=True, ema_momentum=0.9),
    keras.optimizers.Adam(0.02, gradient_accumulation_steps=2),
    keras.optimizers.SGD(keras.optimizers.schedules.CosineDecay(
        0.0, decay_steps=10, warmup_target=0.1, warmup_steps=4)),
    keras.optimizers.SGD(keras.optimizers.schedules.PiecewiseConstantDecay([3, 6], [0.1, 0.05, 0.01])),
    keras.optimizers.SGD(keras.optimizers.schedules.InverseTimeDecay(0.1, 2, 0.5)),
    keras.optimizers.SGD(keras.optimizers.schedules.PolynomialDecay(0.1, 8, 0.01, power=2.0)),
]
for optimizer in optimizers:
    model = build()
    model.compile(optimizer=optimizer, loss='mse')
    h = model.fit(x, y, epochs=2, batch_size=8, verbose=0, shuffle=False)
    print(type(optimizer).__name__, np.round(h.history['loss'], 5).tolist(),
          round(float(keras.ops.convert_to_numpy(optimizer.learning_rate)), 6),
          int(optimizer.iterations))
schedule = keras.optimizers.schedules.CosineDecayRestarts(0.1, 3, t_mul=2.0, m_mul=0.5)
print('restarts', [round(float(schedule(step)), 6) for step in range(0, 12, 2)])
print('schedule config', keras.optimizers.schedules.ExponentialDecay(0.1, 5, 0.9).get_config())

model = build()
weights = model.get_weights()
print('weights', [w.shape for w in weights])
clone = keras.models.clone_model(model)
clone.set_weights(weights)
print('clone same', np.allclose(clone.predict(x[:3], verbose=0), model.predict(x[:3], verbose=0)))
config = json.loads(model.to_json())
print('json', config['class_name'], [layer['class_name'] for layer in config['config']['layers']])
rebuilt = keras.models.model_from_json(model.to_json())
print('rebuilt', [type(layer).__name__ for layer in rebuilt.layers], rebuilt.count_params())
dense = keras.layers.Dense(3, activation='relu', kernel_regularizer=keras.regularizers.L2(0.01),
                           name='reg')
copy = keras.layers.Dense.from_config(dense.get_config())
print('layer config', copy.name, copy.units, copy.activation.__name__,
      type(copy.kernel_regularizer).__name__)
outer = keras.Sequential([keras.Input((4,)), build(), keras.layers.Dense(2, name='top')],
                         name='outer')
outer.summary(line_length=80, expand_nested=True)
outer.compile(optimizer='sgd', loss='mse')
regularized = keras.Sequential([keras.Input((4,)), dense])
regularized(x[:2])
print('regularization losses', [round(float(v), 5) for v in regularized.losses])
