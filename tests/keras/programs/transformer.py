"""A Transformer encoder block (MultiHeadAttention, residuals, LayerNormalization, feed-forward)
with a token-and-position embedding and a padding mask, trained as a sequence classifier."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(7)


class TransformerBlock(keras.layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.att = keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential([keras.layers.Dense(ff_dim, activation='relu'),
                                     keras.layers.Dense(embed_dim)])
        self.layernorm1 = keras.layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = keras.layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = keras.layers.Dropout(rate)
        self.dropout2 = keras.layers.Dropout(rate)

    def call(self, inputs, training=False):
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output, training=training)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output, training=training)
        return self.layernorm2(out1 + ffn_output)


class TokenAndPositionEmbedding(keras.layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_emb = keras.layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = keras.layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        maxlen = tf.shape(x)[-1]
        positions = tf.range(start=0, limit=maxlen, delta=1)
        positions = self.pos_emb(positions)
        x = self.token_emb(x)
        return x + positions


maxlen, vocab = 8, 40
rng = np.random.RandomState(7)
x = rng.randint(0, vocab, size=(48, maxlen))
y = (x[:, :4].mean(axis=1) > 20).astype('int32')
inputs = keras.layers.Input(shape=(maxlen,))
h = TokenAndPositionEmbedding(maxlen, vocab, 8)(inputs)
h = TransformerBlock(8, 2, 16)(h)
h = keras.layers.GlobalAveragePooling1D()(h)
h = keras.layers.Dropout(0.1)(h)
outputs = keras.layers.Dense(2, activation='softmax')(h)
model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(optimizer=keras.optimizers.Adam(0.01), loss='sparse_categorical_crossentropy',
              metrics=['accuracy'])
history = model.fit(x[:40], y[:40], batch_size=8, epochs=3, validation_data=(x[40:], y[40:]),
                    verbose=0)
for key in sorted(history.history):
    print(key, np.round(history.history[key], 5).tolist())
print('predict', np.round(model.predict(x[40:44], verbose=0), 5).tolist())

mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=4, output_shape=5)
query = tf.constant(rng.randn(2, 3, 6).astype('float32'))
value = tf.constant(rng.randn(2, 4, 6).astype('float32'))
mask = np.array([[[1, 1, 0, 0]] * 3, [[1, 1, 1, 1]] * 3], dtype=bool)
out, scores = mha(query, value, attention_mask=mask, return_attention_scores=True)
print('mha', out.shape, scores.shape, np.round(scores.numpy()[0, 0], 5).tolist())
causal = mha(query, query, use_causal_mask=True)
print('causal', causal.shape)
