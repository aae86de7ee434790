"""Transfer learning: a base model frozen (trainable=False, training=False), a new head trained,
then the top of the base unfrozen and fine-tuned with a low learning rate (recompiling), the
counts of trainable weights at each stage; then a model under the 'mixed_float16' policy."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(29)
rng = np.random.RandomState(29)
images = rng.rand(32, 8, 8, 3).astype('float32')
labels = (images[:, :4, :, 0].mean(axis=(1, 2)) > images[:, 4:, :, 0].mean(axis=(1, 2))).astype('int32')

base = keras.Sequential([
    keras.Input((8, 8, 3)),
    keras.layers.Conv2D(4, 3, activation='relu', name='conv1'),
    keras.layers.BatchNormalization(name='bn'),
    keras.layers.Conv2D(4, 3, activation='relu', name='conv2'),
    keras.layers.GlobalAveragePooling2D(),
], name='base')
base.trainable = False
inputs = keras.Input((8, 8, 3))
features = base(inputs, training=False)
outputs = keras.layers.Dense(2, activation='softmax', name='head')(features)
model = keras.Model(inputs, outputs)
model.compile(optimizer=keras.optimizers.Adam(0.05), loss='sparse_categorical_crossentropy',
              metrics=['accuracy'])
print('frozen', len(model.trainable_weights), len(model.non_trainable_weights))
before = [w.numpy().copy() for w in base.weights]
h = model.fit(images, labels, epochs=3, batch_size=8, verbose=0)
print('head loss', np.round(h.history['loss'], 5).tolist())
print('base unchanged', all(np.array_equal(a, w.numpy()) for a, w in zip(before, base.weights)))

base.trainable = True
for layer in base.layers[:-2]:
    layer.trainable = False
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss='sparse_categorical_crossentropy',
              metrics=['accuracy'])
print('fine-tune', len(model.trainable_weights), len(model.non_trainable_weights),
      [w.name for w in model.trainable_weights])
h = model.fit(images, labels, epochs=2, batch_size=8, verbose=0)
print('fine-tune loss', np.round(h.history['loss'], 5).tolist())
print('bn moving mean', np.round(base.get_layer('bn').moving_mean.numpy(), 5).tolist())

keras.mixed_precision.set_global_policy('mixed_float16')
mixed = keras.Sequential([keras.Input((8, 8, 3)), keras.layers.Conv2D(4, 3, activation='relu'),
                          keras.layers.Flatten(), keras.layers.Dense(8, activation='relu'),
                          keras.layers.Dense(2), keras.layers.Activation('softmax', dtype='float32')])
print('policy', mixed.layers[0].dtype_policy.name, mixed.layers[0].compute_dtype,
      mixed.layers[0].variable_dtype, mixed.layers[-1].compute_dtype)
mixed.compile(optimizer='adam', loss='sparse_categorical_crossentropy')
print('optimizer', type(mixed.optimizer).__name__)
h = mixed.fit(images, labels, epochs=2, batch_size=16, verbose=0)
print('mixed loss', np.round(h.history['loss'], 3).tolist())
out = mixed.predict(images[:2], verbose=0)
print('mixed out', out.dtype, np.round(out, 2).tolist())
print('hidden dtype', mixed.layers[2](tf.ones((1, 144))).dtype)
keras.mixed_precision.set_global_policy('float32')
