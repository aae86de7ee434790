"""Image preprocessing layers: Rescaling, Resizing (bilinear, nearest, crop_to_aspect_ratio),
CenterCrop, and the seeded augmentations RandomFlip, RandomRotation, RandomZoom,
RandomTranslation, RandomContrast, used in a tf.data map and inside a model."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(5)
images = np.arange(2 * 6 * 8 * 3, dtype='float32').reshape(2, 6, 8, 3) % 255

print('rescale', keras.layers.Rescaling(1 / 255.0, offset=-0.5)(images)[0, 0, :2].numpy())
print('resize', keras.layers.Resizing(3, 4)(images)[0, :, :, 0].numpy())
print('resize nearest', keras.layers.Resizing(4, 4, interpolation='nearest')(images)[1, :, :, 1].numpy())
print('resize crop', keras.layers.Resizing(4, 4, crop_to_aspect_ratio=True)(images)[0, :, :, 2].numpy())
print('center crop', keras.layers.CenterCrop(4, 4)(images)[0, :, :, 0].numpy())

flip = keras.layers.RandomFlip('horizontal', seed=1)
rot = keras.layers.RandomRotation(0.2, seed=2, fill_mode='constant')
zoom = keras.layers.RandomZoom(0.3, seed=3)
shift = keras.layers.RandomTranslation(0.2, 0.2, seed=4)
contrast = keras.layers.RandomContrast(0.5, seed=6)
for layer in (flip, rot, zoom, shift, contrast):
    out = layer(images, training=True)
    print(type(layer).__name__, out.shape, np.round(out.numpy()[:, :, :, 0].sum(axis=(1, 2)), 2))
    print(' inference unchanged', np.array_equal(layer(images, training=False).numpy(), images))

augment = keras.Sequential([keras.layers.RandomFlip('horizontal_and_vertical', seed=7),
                            keras.layers.Rescaling(1 / 255.0)])
ds = tf.data.Dataset.from_tensor_slices((images, [0, 1])).batch(2)
ds = ds.map(lambda x, y: (augment(x, training=True), y))
for x, y in ds:
    print('mapped', x.shape, x.dtype, np.round(x.numpy()[:, 0, 0, 0], 5), y.numpy())

inputs = keras.Input((6, 8, 3))
h = keras.layers.Rescaling(1 / 127.5, offset=-1)(inputs)
h = keras.layers.RandomFlip('horizontal', seed=8)(h)
h = keras.layers.Resizing(4, 4)(h)
h = keras.layers.Conv2D(2, 3, activation='relu')(h)
h = keras.layers.GlobalAveragePooling2D()(h)
outputs = keras.layers.Dense(1)(h)
model = keras.Model(inputs, outputs)
model.compile(optimizer='sgd', loss='mse')
history = model.fit(images, np.array([0.5, -0.5]), epochs=3, verbose=0)
print('loss', history.history['loss'])
print('predict', model.predict(images, verbose=0).ravel())
