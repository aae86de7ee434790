"""A convolutional autoencoder and other layer kinds: Conv2D strides, Conv2DTranspose,
UpSampling2D, SeparableConv2D, DepthwiseConv2D, Reshape, Permute, Cropping2D, ZeroPadding2D,
shared layers in a siamese functional model, Add/Multiply/Subtract/Dot, Lambda, Masking with an
LSTM, Attention and AdditiveAttention, each with model.summary()'s parameter counts."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(37)
rng = np.random.RandomState(37)
images = rng.rand(16, 8, 8, 1).astype('float32')

inputs = keras.Input((8, 8, 1))
h = keras.layers.Conv2D(4, 3, strides=2, padding='same', activation='relu')(inputs)
h = keras.layers.SeparableConv2D(6, 3, padding='same', activation='relu')(h)
h = keras.layers.DepthwiseConv2D(3, padding='same', depth_multiplier=2)(h)
code = keras.layers.Conv2D(2, 1, name='code')(h)
h = keras.layers.Conv2DTranspose(4, 3, strides=2, padding='same', activation='relu')(code)
h = keras.layers.ZeroPadding2D(1)(h)
h = keras.layers.Cropping2D(1)(h)
outputs = keras.layers.Conv2D(1, 3, padding='same', activation='sigmoid')(h)
auto = keras.Model(inputs, outputs)
print([(layer.name, layer.count_params(), tuple(layer.output.shape)) for layer in auto.layers])
auto.compile(optimizer='adam', loss='binary_crossentropy')
h = auto.fit(images, images, epochs=3, batch_size=4, verbose=0)
print('autoencoder', np.round(h.history['loss'], 5).tolist())
up = keras.Sequential([keras.Input((2, 2, 1)), keras.layers.UpSampling2D(2),
                       keras.layers.UpSampling2D(size=(1, 2), interpolation='bilinear')])
print('upsample', up(np.arange(4, dtype='float32').reshape(1, 2, 2, 1)).numpy()[0, :, :, 0].tolist())
shapes = keras.Sequential([keras.Input((6,)), keras.layers.Reshape((2, 3)),
                           keras.layers.Permute((2, 1)), keras.layers.Flatten(),
                           keras.layers.RepeatVector(2)])
print('reshape', shapes(np.arange(6, dtype='float32')[None]).numpy().tolist())

left_in, right_in = keras.Input((4,)), keras.Input((4,))
shared = keras.layers.Dense(3, activation='tanh', name='shared')
a, b = shared(left_in), shared(right_in)
merged = keras.layers.Concatenate()([keras.layers.Add()([a, b]), keras.layers.Multiply()([a, b]),
                                     keras.layers.Subtract()([a, b]),
                                     keras.layers.Dot(axes=1, normalize=True)([a, b]),
                                     keras.layers.Lambda(lambda t: tf.abs(t[0] - t[1]))([a, b])])
siamese = keras.Model([left_in, right_in], keras.layers.Dense(1, activation='sigmoid')(merged))
print('siamese weights', len(siamese.weights), siamese.count_params())
pairs = rng.randn(2, 24, 4).astype('float32')
same = (np.abs(pairs[0] - pairs[1]).sum(axis=1) < 3).astype('float32')
siamese.compile(optimizer=keras.optimizers.SGD(0.1), loss='binary_crossentropy')
h = siamese.fit([pairs[0], pairs[1]], same, epochs=3, batch_size=8, verbose=0)
print('siamese', np.round(h.history['loss'], 5).tolist())

seq = rng.randn(6, 5, 3).astype('float32')
seq[:, 3:, :] = 0.0
masked = keras.Sequential([keras.Input((5, 3)), keras.layers.Masking(0.0),
                           keras.layers.LSTM(4, return_sequences=True), keras.layers.LSTM(2)])
print('masked lstm', np.round(masked(seq).numpy()[:2], 5).tolist())
print('mask', masked.layers[0].compute_mask(seq).numpy()[0].tolist())
query, value = keras.Input((3, 4)), keras.Input((5, 4))
att = keras.layers.Attention(use_scale=True)([query, value])
add = keras.layers.AdditiveAttention()([query, value])
att_model = keras.Model([query, value], [att, add])
qa, va = rng.randn(2, 3, 4).astype('float32'), rng.randn(2, 5, 4).astype('float32')
o1, o2 = att_model([qa, va])
print('attention', np.round(o1.numpy()[0], 5).tolist())
print('additive', np.round(o2.numpy()[0], 5).tolist())
scores = keras.layers.Attention()([qa, va], return_attention_scores=True)[1]
print('scores', np.round(scores.numpy()[1], 5).tolist())
